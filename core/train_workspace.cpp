// train_workspace.cpp — the step's buffers in the shapes of the model (train_workspace.hpp).
#include "train_workspace.hpp"

#include "reference.hpp"

namespace attn {

HeadWorkspace::HeadWorkspace(const ModelConfig& c)
    : q(c.length, c.d_head), k(q), v(q), d_out(q), v_t(c.d_head, c.length) {
    const std::size_t n = c.length;
    steps.scores = steps.kept = steps.scaled = steps.shifted = steps.exps = steps.weights = Matrix(n, n);
    steps.row_max = steps.row_sum = Matrix(n, 1);
    steps.output = q;
    grads.d_weights = grads.d_scaled = grads.d_scores = Matrix(n, n);
    grads.d_v = grads.d_q = grads.d_k = q;
}

namespace {

Matrix heads_mask(const ModelConfig& c) {
    Mask mask;
    mask.kind = c.causal ? MaskKind::Causal : MaskKind::None;
    return reference::kept_cells(mask, c.length, c.length);
}

}  // namespace

TrainWorkspace::TrainWorkspace(const ModelConfig& c, std::size_t sequences)
    : kept(heads_mask(c)),
      heads(c.heads, HeadWorkspace(c)),
      w_out_t(c.classes, c.heads * c.d_head),
      heads_out(c.length, c.heads * c.d_head),
      logits(c.length, c.classes),
      exps(c.classes),
      d_logits(c.length, c.classes),
      d_heads(c.length, c.heads * c.d_head),
      rows(c, sequences),
      grads(zero_params(c)) {}

}  // namespace attn
