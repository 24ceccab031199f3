// The words of multi-head attention (多头注意力, the series' next step after article 3), in both
// languages side by side: the heads option, the two steps after AV (拼接 concat, 输出投影 W_O), the
// heads overview and the note on what heads cost.
export default {
  'zh-CN': {
    'preset.heads': '"它 是 猫"+ 2 个头(多头注意力)',
    'heads.label': '头数 h',
    'heads.hint': '多头注意力:dₖ、dᵥ 是 W_Q、W_V 的总列数 h·dₖ、h·dᵥ,每个头取其中一块。',
    'heads.value': '{h} 个头',
    'heads.head': '显示第几个头',
    'heads.headN': '头 {i}',
    'heads.showing': '正在看头 {i} / {h}:第 3–9 步是这个头自己的 Q、K、V(Q、K、V 的第 {i} 个列块)。',

    'step.concat.title': '拼接:把各个头的输出并排',
    'step.concat.text':
      '每个头各自做了一遍第 3–9 步:用自己那一块 Q、K、V 打分、softmax、加权,得到 n × dᵥ 的输出。多头注意力把这些输出左右并排拼起来(concat),每个词得到一行 h·dᵥ 个数:每一块来自一个头,颜色就是那个头的颜色。',
    'step.outproj.title': '输出投影:乘以 W_O',
    'step.outproj.text':
      '拼接后的每一行再乘以输出投影矩阵 W_O(h·dᵥ × d),把各个头看到的东西混合回模型的宽度 d:O_ij = Σₜ concat_it · (W_O)_tj。点一个数,可以看到这一项一项的乘加。',
    'map.concat': '拼接',
    'map.outproj': '输出投影',
    'mat.qAll': '全部头的 Q:每个列块是一个头的 Q',
    'mat.kAll': '全部头的 K:每个列块是一个头的 K',
    'mat.vAll': '全部头的 V:每个列块是一个头的 V',
    'mat.concat': '拼接:每个列块是一个头的输出',
    'mat.wo': '输出投影 W_O:每个行块读一个头的输出',
    'mat.projected': '多头注意力的输出:每个词一行',
    'export.py.heads': '头数:每个头取 Q、K、V 的一个列块',
    'export.py.concat': '拼接各个头的输出',
    'export.py.outproj': '输出投影',
    'explain.projectionHeading': '{i}的多头输出,第 {c} 维:拼接的这一行乘以 W_O 的这一列',
    'explain.projectionTerms': '拼接的第 t 个数 × W_O 第 t 行的这一维,逐项相乘',

    'heads.overview': '各个头的注意力权重 A',
    'heads.overviewText':
      '每个头学会关注不同的东西。下面并排列出每个头的 A,以及它的平均熵(越小越集中)和最大权重;点一个头,看它自己的第 3–9 步。',
    'heads.entropy': '平均熵 {value} 比特',
    'heads.largest': '最大权重 {value}',
    'heads.open': '看头 {i} 的步骤',
    'heads.table': '头 {i} 的注意力权重 A',
    'heads.linesCaption': '每条线连接两个词,颜色和编号是头的;线越粗,权重越大(每个词只画它最看重的词)。',
    'heads.line': '头 {i}:{from} → {to},权重 {weight}',

    'heads.cost':
      '算一算成本(核心自己的计数):{h} 个头、每头 dₖ = {dk}、dᵥ = {dv},一共 {total} 次乘加;一个 dₖ = {widthK}、dᵥ = {widthV} 的头,一共 {single} 次。分成多头并不更贵:投影 {projections} 和输出投影 {outputProjection} 两边相同,打分 {scores} 与加权 {weighting} 也相同。',
  },
  en: {
    'preset.heads': '"it is cat" with 2 heads (multi-head attention)',
    'heads.label': 'heads h',
    'heads.hint':
      'Multi-head attention: dₖ and dᵥ are the widths h·dₖ and h·dᵥ of W_Q and W_V; each head takes one block of them.',
    'heads.value': '{h} heads',
    'heads.head': 'head shown',
    'heads.headN': 'head {i}',
    'heads.showing': "Showing head {i} of {h}: steps 3–9 are this head's own Q, K, V (column block {i} of Q, K, V).",

    'step.concat.title': "Concat: the heads' outputs side by side",
    'step.concat.text':
      "Each head has done steps 3–9 on its own: scores, softmax and weighting with its own block of Q, K and V, giving an n × dᵥ output. Multi-head attention puts these outputs side by side (concat), so each word gets a row of h·dᵥ numbers: each block comes from one head, in that head's colour.",
    'step.outproj.title': 'Output projection: multiply by W_O',
    'step.outproj.text':
      'Each row of the concat is then multiplied by the output projection W_O (h·dᵥ × d), which mixes what the heads saw back into the model width d: O_ij = Σₜ concat_it · (W_O)_tj. Pick a number to see its multiply-adds term by term.',
    'map.concat': 'concat',
    'map.outproj': 'output projection',
    'mat.qAll': "every head's Q: each column block is one head's Q",
    'mat.kAll': "every head's K: each column block is one head's K",
    'mat.vAll': "every head's V: each column block is one head's V",
    'mat.concat': "concat: each column block is one head's output",
    'mat.wo': "output projection W_O: each block of rows reads one head's output",
    'mat.projected': 'output of multi-head attention: one row per word',
    'export.py.heads': 'heads: each takes one column block of Q, K and V',
    'export.py.concat': "the heads' outputs side by side",
    'export.py.outproj': 'the output projection',
    'explain.projectionHeading':
      'Multi-head output of {i}, dimension {c}: this row of the concat times this column of W_O',
    'explain.projectionTerms': 'each number t of the concat times row t of W_O in this dimension',

    'heads.overview': "Each head's attention weights A",
    'heads.overviewText':
      "Each head learns to attend to something else. Here is every head's A side by side, with its mean entropy (smaller is more focused) and its largest weight; choose a head to see its own steps 3–9.",
    'heads.entropy': 'mean entropy {value} bits',
    'heads.largest': 'largest weight {value}',
    'heads.open': "Show head {i}'s steps",
    'heads.table': 'attention weights A of head {i}',
    'heads.linesCaption':
      "Each line joins two words, in its head's colour and with its head's number; the thicker, the larger the weight (each word shows only the word it weighs most).",
    'heads.line': 'head {i}: {from} → {to}, weight {weight}',

    'heads.cost':
      "What it costs (the core's own counts): {h} heads of dₖ = {dk}, dᵥ = {dv} take {total} multiply-adds; one head of dₖ = {widthK}, dᵥ = {widthV} takes {single}. Splitting into heads costs nothing extra: the projections ({projections}) and the output projection ({outputProjection}) are the same, and so are the scores ({scores}) and the weighting ({weighting}).",
  },
};
