// The words of the step's formula filled in with a cell's numbers (issue 18, item 13) and of the
// article's picture of q and k as two arrows (§3 "两个向量就像两支箭", item 14), in both languages
// side by side.
export default {
  'zh-CN': {
    'filled.hint': '把鼠标移到(或用键盘、手指点)一个可展开的格子上,上面这一步的公式就会代入它的数字。',
    'filled.none': '这一步的数字不是逐格求和算出来的(输入,或把各头的输出并排拼接),没有可代入数字的公式。',
    'explain.shift': '减去这一行的最大值',
    'explain.shiftColumn': '减去这一列的最大值(按列 softmax,误区)',
    'explain.sum': '这一行的 e 加起来',
    'explain.sumColumn': '这一列的 e 加起来(按列 softmax,误区)',
    'explain.inputProjectionHeading': '{i}的 {name},第 {c} 维:X 的这一行乘以 W_{name} 的这一列',
    'explain.inputProjectionTerms': 'X 的第 t 个数 × W 第 t 行的这一维,逐项相乘',
    'arrows.title': '两支箭:q 和 k',
    'arrows.text':
      '两个向量就像两支箭:方向越一致,点积越大;互相垂直,点积为 0;方向相反,点积为负。点积等于两支箭的长度相乘,再乘以夹角的余弦:|q||k| cos θ = q·k。',
    'arrows.edit':
      '拖动箭头(或选中箭头后按方向键,Shift 一次走 1)会改 Q 或 K 的这一行,后面的每个矩阵都跟着变;可以撤销。',
    'arrows.readOnly':
      '现在 Q、K 是由 X·W_Q、X·W_K 算出来的:拖动箭头就得改 X 或权重,所以这里只看不改。想直接拖,请切换到"直接给出 Q、K、V"(所有数字保持不变)。',
    'arrows.switchMode': '切换到"直接给出 Q、K、V",拖动箭头',
    'arrows.needs2d': '两支箭的图要在平面上画,需要 dₖ = 2;现在 dₖ = {dk}。把 dₖ 设为 2 就能看到。',
    'arrows.choose.q': '哪个 q(Query 的行)',
    'arrows.choose.k': '哪个 k(Key 的行)',
    'arrows.handle': '{name} = ({x}, {y}) 的箭头:用方向键移动',
    'arrows.readout':
      '{q} = {qv},{k} = {kv}:|{q}| = {lq},|{k}| = {lk},夹角 θ = {angle}°;|{q}||{k}| cos θ = {lq} × {lk} × cos {angle}° = {dot} = {q}·{k} = {s}',
    'arrows.readoutZero': '{q} = {qv},{k} = {kv}:有一支箭长度为 0,没有方向,夹角没有定义;{q}·{k} = {dot} = {s}',
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
    'explain.inputProjectionHeading': '{name} of {i}, dimension {c}: this row of X times this column of W_{name}',
    'explain.inputProjectionTerms': 'each number t of X times row t of W in this dimension',
    'arrows.title': 'Two arrows: q and k',
    'arrows.text':
      'Two vectors are like two arrows: the more they point the same way, the larger their dot product; at a right angle it is 0; pointing apart, it is negative. The dot product is the two lengths times the cosine of the angle between them: |q||k| cos θ = q·k.',
    'arrows.edit':
      "Drag an arrow's head (or focus it and use the arrow keys, Shift for steps of 1): it changes this row of Q or K, and every later matrix follows. Undo takes it back.",
    'arrows.readOnly':
      'Q and K are computed here as X·W_Q and X·W_K: dragging an arrow would have to change X or a weight, so the arrows only show. To drag them, switch to "Q, K, V directly" (every number stays as it is).',
    'arrows.switchMode': 'Switch to "Q, K, V directly" and drag the arrows',
    'arrows.needs2d':
      'The picture of two arrows is drawn in the plane: it needs d_k = 2, and d_k is {dk} here. Set d_k to 2 to see it.',
    'arrows.choose.q': 'Which q (row of Q)',
    'arrows.choose.k': 'Which k (row of K)',
    'arrows.handle': 'Arrow {name} = ({x}, {y}): move it with the arrow keys',
    'arrows.readout':
      '{q} = {qv}, {k} = {kv}: |{q}| = {lq}, |{k}| = {lk}, angle θ = {angle}°; |{q}||{k}| cos θ = {lq} × {lk} × cos {angle}° = {dot} = {q}·{k} = {s}',
    'arrows.readoutZero':
      '{q} = {qv}, {k} = {kv}: an arrow of length 0 has no direction, so there is no angle; {q}·{k} = {dot} = {s}',
  },
};
