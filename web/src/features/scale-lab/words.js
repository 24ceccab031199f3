// The words of the lab "why divide by √d_k" (view=scale-lab), in both languages. The explanations
// follow the article's §4 and its FAQ, in its own words where they fit.
export default {
  'zh-CN': {
    'view.scale-lab': '为什么除以 √dₖ',
    'scalelab.lead':
      '这是公式里最容易被忽略、却很关键的一步。假设 q 和 k 的每个分量都是相互独立、均值 0、方差 1 的随机数:每一项 qᵢkᵢ 均值为 0、方差为 1,而 dₖ 个独立项相加,方差会累加,于是 Var(q·k) = dₖ。这里在你选的 dₖ 下抽 {count} 对 q、k,把它们的点积画出来,和理论值放在一起看。',
    'scalelab.control': '维度',
    'scalelab.dkValue': 'dₖ = {dk}',
    'scalelab.halve': 'dₖ 减半',
    'scalelab.double': 'dₖ 加倍',
    'scalelab.controlHint': '拖动滑块,或用方向键在 1、2、4……1024 之间切换。',
    'scalelab.seed': '随机数来自 wasm 核心,种子固定为 {seed}:同一个 dₖ 每次得到同样的结果。',
    'scalelab.error': '无法计算:{message}',

    'scalelab.h.variance': '1. 点积的方差随 dₖ 增长',
    'scalelab.variance.text':
      '维度越多,可累加的“共同点”就越多,总分自然容易冲得很高或很低:标准差约为 √dₖ。除以 √dₖ,把方差重新拉回 1:Var(q·k/√dₖ) = dₖ/(√dₖ)² = 1。三张图用同一条横轴(±{range})和同一条纵轴。',
    'scalelab.series.none': 'q·k(不缩放)',
    'scalelab.series.sqrt_dk': 'q·k / √dₖ(原文)',
    'scalelab.series.dk': 'q·k / dₖ(除以 dₖ)',
    'scalelab.short.none': '不缩放',
    'scalelab.short.sqrt_dk': '÷ √dₖ',
    'scalelab.short.dk': '÷ dₖ',
    'scalelab.measured': '实测方差',
    'scalelab.theory': '理论方差',
    'scalelab.mean': '均值',
    'scalelab.theory.none': 'dₖ = {value}',
    'scalelab.theory.sqrt_dk': '1',
    'scalelab.theory.dk': '1/dₖ = {value}',
    'scalelab.offAxis': '{n} 个值落在 ±{range} 之外(左边 {below} 个,右边 {above} 个)',
    'scalelab.onAxis': '全部 {n} 个值都在 ±{range} 之内',
    'scalelab.axis.value': '值',
    'scalelab.axis.count': '每格个数',
    'scalelab.legend.bars': '柱:实测,每格(宽 {width})里的个数',
    'scalelab.legend.theory': '虚线:理论,方差为理论值的正态分布',
    'scalelab.legend.clipped': '↑ n:柱子超出图顶,顶上写出它的个数',
    'scalelab.legend.off': '← n、n →:落在横轴之外的个数',
    'scalelab.histLabel': '{name} 的直方图,横轴 −{range} 到 {range}:实测方差 {variance},理论 {theory}。{off}。',
    'scalelab.faq':
      '问:为什么是除以 √dₖ,不是除以 dₖ?答:我们要抵消的是“波动幅度”这个尺度,也就是标准差 √dₖ。若除以 dₖ,方差只剩 1/dₖ,反而会把分数压得过小,差距被抹平,注意力变得过于“平均”,同样不利——见第三张图和下面的 ÷ dₖ 一行。',

    'scalelab.h.softmax': '2. 一行分数经过 softmax:赢家通吃',
    'scalelab.softmax.text':
      '一个查询 q 对 {keys} 个键 k₁…k{last} 打分,再做 softmax。当输入给 softmax 的数值绝对值很大时,softmax 会变得极度“尖锐”——几乎把全部权重压到最大的那一项上,其余几乎为 0。熵衡量权重有多“平均”:均匀分配时最大(ln {keys} = {max}),一家独得时为 0。',
    'scalelab.largest': '最大权重',
    'scalelab.entropy': '熵(nat)',
    'scalelab.entropyOf': '{value} / 最大 {max}',
    'scalelab.grad': '梯度最大项',
    'scalelab.axis.weight': '权重',
    'scalelab.axis.key': '键',
    'scalelab.rowLabel': '{name}:{keys} 个权重的柱状图,最大权重 {largest},熵 {entropy}。',
    'scalelab.rowSummary':
      '不缩放时最大的权重是 {none},熵 {hn};除以 √dₖ 后最大权重 {sqrt},熵 {hs};除以 dₖ 后最大权重 {dk},熵 {hd}。',
    'scalelab.table': '这一行的数字',
    'scalelab.col.key': '键',
    'scalelab.col.score': '分数 q·kⱼ',
    'scalelab.col.weight': '权重({name})',

    'scalelab.h.gradient': '3. 饱和让梯度消失',
    'scalelab.gradient.text':
      'softmax 的梯度是雅可比矩阵 ∂aᵢ/∂sⱼ = aᵢ(δᵢⱼ − aⱼ),即 diag(a) − a·aᵀ。它最大的一项是 maxᵢ aᵢ(1 − aᵢ),永远不超过 1/4(aᵢ = 1/2 时取到);权重越接近 0 或 1,它就越小。一旦进入这种饱和区,梯度会变得非常小,模型难以训练。',
    'scalelab.gradLabel': '三种缩放下梯度最大项的条形图,横轴 0 到 1/4:{values}。',
    'scalelab.limit': '上限 1/4',
    'scalelab.grad.ratio': 'dₖ = {dk}:不缩放时梯度最大项是 {none},除以 √dₖ 后是 {sqrt}——饱和让梯度小了约 {ratio} 倍。',
    'scalelab.grad.zero': 'dₖ = {dk}:不缩放时权重已是精确的 0 和 1(float32),梯度最大项是 0;除以 √dₖ 后是 {sqrt}。',
    'scalelab.grad.close':
      'dₖ = {dk}:分数还不大,softmax 尚未饱和,两者相差不多(不缩放 {none},除以 √dₖ {sqrt})。把 dₖ 调大看看。',
    'scalelab.grad.same': 'dₖ = 1:√dₖ = dₖ = 1,三种缩放都是除以 1,结果一样。把 dₖ 调大看看。',
    'scalelab.conclusion':
      '这就是那个 √dₖ 的来历——它让分数的尺度不随维度膨胀,softmax 始终工作在“听得进梯度”的健康区间。',
    'scalelab.announce': 'dₖ = {dk}:q·k 的实测方差 {none},除以 √dₖ 后 {sqrt}。',
  },
  en: {
    'view.scale-lab': 'Why divide by √dₖ',
    'scalelab.lead':
      'This is the step of the formula most easily overlooked, yet it matters. Suppose every component of q and k is an independent random number with mean 0 and variance 1: each term qᵢkᵢ has mean 0 and variance 1, and adding up dₖ independent terms adds up their variances, so Var(q·k) = dₖ. Here {count} pairs q, k are drawn at the dₖ you choose, and their dot products are drawn beside the theory.',
    'scalelab.control': 'Dimension',
    'scalelab.dkValue': 'dₖ = {dk}',
    'scalelab.halve': 'Halve dₖ',
    'scalelab.double': 'Double dₖ',
    'scalelab.controlHint': 'Drag the slider, or use the arrow keys to go through 1, 2, 4 … 1024.',
    'scalelab.seed':
      'The random numbers come from the wasm core with the fixed seed {seed}: the same dₖ always gives the same result.',
    'scalelab.error': 'Could not compute: {message}',

    'scalelab.h.variance': '1. The variance of the dot product grows with dₖ',
    'scalelab.variance.text':
      'The more dimensions, the more "things in common" can add up, so the total easily shoots very high or very low: its standard deviation is about √dₖ. Dividing by √dₖ brings the variance back to 1: Var(q·k/√dₖ) = dₖ/(√dₖ)² = 1. The three charts share one horizontal axis (±{range}) and one vertical axis.',
    'scalelab.series.none': 'q·k (unscaled)',
    'scalelab.series.sqrt_dk': 'q·k / √dₖ (the article)',
    'scalelab.series.dk': 'q·k / dₖ (divided by dₖ)',
    'scalelab.short.none': 'unscaled',
    'scalelab.short.sqrt_dk': '÷ √dₖ',
    'scalelab.short.dk': '÷ dₖ',
    'scalelab.measured': 'Measured variance',
    'scalelab.theory': 'Theory',
    'scalelab.mean': 'Mean',
    'scalelab.theory.none': 'dₖ = {value}',
    'scalelab.theory.sqrt_dk': '1',
    'scalelab.theory.dk': '1/dₖ = {value}',
    'scalelab.offAxis': '{n} values beyond ±{range} ({below} on the left, {above} on the right)',
    'scalelab.onAxis': 'all {n} values within ±{range}',
    'scalelab.axis.value': 'value',
    'scalelab.axis.count': 'count per bin',
    'scalelab.legend.bars': 'Bars: measured, the count in each bin (width {width})',
    'scalelab.legend.theory': 'Dashed: theory, the normal distribution with the theoretical variance',
    'scalelab.legend.clipped': '↑ n: a bar taller than the chart, with its count on top',
    'scalelab.legend.off': '← n, n →: the values off the horizontal axis',
    'scalelab.histLabel':
      'Histogram of {name}, horizontal axis −{range} to {range}: measured variance {variance}, theory {theory}. {off}.',
    'scalelab.faq':
      'Q: why divide by √dₖ and not by dₖ? A: what we want to cancel is the size of the swings, the standard deviation √dₖ. Dividing by dₖ leaves a variance of only 1/dₖ: it squashes the scores too much, flattens their differences and makes attention too "even" — just as unhelpful. See the third chart, and the ÷ dₖ row below.',

    'scalelab.h.softmax': '2. One row of scores through softmax: winner takes all',
    'scalelab.softmax.text':
      'One query q scores {keys} keys k₁…k{last}, then softmax turns the scores into weights. When the numbers fed to softmax are large in magnitude, it becomes extremely "sharp": nearly all the weight goes to the largest one and the rest get almost 0. The entropy measures how even the weights are: largest for an even split (ln {keys} = {max}), 0 when one key takes everything.',
    'scalelab.largest': 'Largest weight',
    'scalelab.entropy': 'Entropy (nats)',
    'scalelab.entropyOf': '{value} / at most {max}',
    'scalelab.grad': 'Largest gradient entry',
    'scalelab.axis.weight': 'weight',
    'scalelab.axis.key': 'key',
    'scalelab.rowLabel': '{name}: bar chart of {keys} weights, largest weight {largest}, entropy {entropy}.',
    'scalelab.rowSummary':
      'Unscaled, the largest weight is {none} with entropy {hn}; divided by √dₖ it is {sqrt} with entropy {hs}; divided by dₖ, {dk} with entropy {hd}.',
    'scalelab.table': 'The numbers of this row',
    'scalelab.col.key': 'Key',
    'scalelab.col.score': 'Score q·kⱼ',
    'scalelab.col.weight': 'Weight ({name})',

    'scalelab.h.gradient': '3. Saturation makes the gradient vanish',
    'scalelab.gradient.text':
      'The gradient of softmax is its Jacobian ∂aᵢ/∂sⱼ = aᵢ(δᵢⱼ − aⱼ), i.e. diag(a) − a·aᵀ. Its largest entry is maxᵢ aᵢ(1 − aᵢ), never more than 1/4 (reached at aᵢ = 1/2); the closer the weights are to 0 or 1, the smaller it gets. Once softmax is in this saturated zone, the gradient becomes tiny and the model can hardly learn.',
    'scalelab.gradLabel': 'Bar chart of the largest gradient entry under the three scalings, axis 0 to 1/4: {values}.',
    'scalelab.limit': 'limit 1/4',
    'scalelab.grad.ratio':
      'dₖ = {dk}: unscaled, the largest gradient entry is {none}; divided by √dₖ it is {sqrt} — saturation made the gradient about {ratio} times smaller.',
    'scalelab.grad.zero':
      'dₖ = {dk}: unscaled, the weights are already exactly 0 and 1 (float32) and the largest gradient entry is 0; divided by √dₖ it is {sqrt}.',
    'scalelab.grad.close':
      'dₖ = {dk}: the scores are still small and softmax is not saturated yet; the two are close (unscaled {none}, divided by √dₖ {sqrt}). Try a larger dₖ.',
    'scalelab.grad.same': 'dₖ = 1: √dₖ = dₖ = 1, so all three scalings divide by 1 and agree. Try a larger dₖ.',
    'scalelab.conclusion':
      'This is where the √dₖ comes from: it keeps the scale of the scores from swelling with the dimension, so softmax always works in the healthy range where it can "hear" the gradient.',
    'scalelab.announce': 'dₖ = {dk}: measured variance of q·k {none}, divided by √dₖ {sqrt}.',
  },
};
