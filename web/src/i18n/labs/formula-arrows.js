// The words of the step's formula filled in with a cell's numbers (issue 18, item 13), in both
// languages side by side.
export default {
  'zh-CN': {
    'filled.hint': '把鼠标移到(或用键盘、手指点)一个可展开的格子上,上面这一步的公式就会代入它的数字。',
    'filled.none': '这一步的数字不是逐格求和算出来的(输入,或把各头的输出并排拼接),没有可代入数字的公式。',
    'explain.shift': '减去这一行的最大值',
    'explain.shiftColumn': '减去这一列的最大值(按列 softmax,误区)',
    'explain.sum': '这一行的 e 加起来',
    'explain.sumColumn': '这一列的 e 加起来(按列 softmax,误区)',
    'explain.inputProjectionHeading': '第 {i} 个词的 {name},第 {c} 维:X 的这一行乘以 W_{name} 的这一列',
    'explain.inputProjectionTerms': 'X 的第 t 个数 × W 第 t 行的这一维,逐项相乘',
  },
  en: {
    'filled.hint':
      "Hover over a cell that expands (or focus it, or tap it): this step's formula above fills in its numbers.",
    'filled.none':
      "No number on this step is a sum worked out cell by cell (the input, or the heads' outputs side by side): there is no formula to fill in.",
    'explain.shift': "subtract the row's max",
    'explain.shiftColumn': "subtract the column's max (column softmax, the misconception)",
    'explain.sum': 'add up the row of e',
    'explain.sumColumn': 'add up the column of e (column softmax, the misconception)',
    'explain.inputProjectionHeading': '{name} of word {i}, dimension {c}: this row of X times this column of W_{name}',
    'explain.inputProjectionTerms': 'each number t of X times row t of W in this dimension',
  },
};
