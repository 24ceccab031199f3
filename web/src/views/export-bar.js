// The export buttons (NumPy, JSON, CSV, PNG) and "Print handout". Being written.
export function renderExportBar(root) {
  root.replaceChildren();
}
