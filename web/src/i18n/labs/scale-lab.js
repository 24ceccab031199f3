// The words of the lab "why divide by √d_k" (view=scale-lab), in both languages.
export default {
  'zh-CN': {
    'view.scale-lab': '为什么除以 √dₖ',
    'scale.intro':
      '文章第 4 节说:如果 q 和 k 的每个分量都独立、均值为 0、方差为 1,那么点积 q·k 的方差是 dₖ。dₖ 越大,分数摆动越大,softmax 就越“尖”,几乎把全部权重给最大的那个,梯度也随之变得很小。这里由计算核心真的抽样,量一量这些话。',
    'scale.dk': '维度 dₖ',
    'scale.dkValue': 'dₖ = {dk}',
    'scale.samples': '计算核心用 SIMD 点积抽了 {count} 对 q、k(各分量独立服从 N(0, 1),种子 {seed}:每次都是同样的数)。',
    'scale.histTitle': '一、点积的分布',
    'scale.series.none': '不缩放:q·k',
    'scale.series.sqrt_dk': '除以 √dₖ(文章的做法)',
    'scale.series.dk': '除以 dₖ(FAQ 里的“太平”)',
    'scale.variance': '实测方差 {measured},理论值 {theory}',
    'scale.offAxis': '另有 {count} 个值落在 ±{range} 之外',
    'scale.curve': '虚线:方差为 1 的正态分布,作对照。',
    'scale.axis': '分数的值',
    'scale.chartLabel': '{name} 的直方图:实测方差 {measured},理论值 {theory}。',
    'scale.rowTitle': '二、一行分数经过 softmax',
    'scale.rowText':
      '一个查询 q 对 {keys} 个键 k 打分,再做 softmax。dₖ 越大,不缩放时越接近“赢家通吃”:最大权重接近 1,熵接近 0。',
    'scale.largest': '最大权重',
    'scale.entropy': '熵(最大 ln {keys} = {max})',
    'scale.gradTitle': '三、softmax 的梯度',
    'scale.gradText':
      'softmax 的雅可比矩阵是 diag(a) − a·aᵀ,它最大的元素是 maxᵢ aᵢ(1 − aᵢ),不超过 1/4。权重一旦饱和(接近 0 或 1),它就趋于 0:梯度消失。',
    'scale.gradient': '雅可比矩阵最大元素',
    'scale.weightsLabel': '{name}:{keys} 个权重',
    'scale.summary':
      'dₖ = {dk} 时,不缩放:最大权重 {noneLargest},梯度 {noneGrad};除以 √dₖ:最大权重 {sqrtLargest},梯度 {sqrtGrad}。',
  },
  en: {
    'view.scale-lab': 'Why divide by √dₖ',
    'scale.intro':
      'Section 4 of the article says: if each component of q and k is independent with mean 0 and variance 1, the dot product q·k has variance dₖ. The larger dₖ, the wider the scores swing, the "sharper" softmax becomes — almost all weight on the largest entry — and the smaller its gradients. Here the core really samples, and these claims are measured.',
    'scale.dk': 'Dimension dₖ',
    'scale.dkValue': 'dₖ = {dk}',
    'scale.samples':
      'The core drew {count} pairs q, k with its SIMD dot product (independent N(0, 1) components, seed {seed}: the same numbers every time).',
    'scale.histTitle': '1. How the dot products spread',
    'scale.series.none': 'Unscaled: q·k',
    'scale.series.sqrt_dk': 'Divided by √dₖ (the article)',
    'scale.series.dk': 'Divided by dₖ (the FAQ\'s "too flat")',
    'scale.variance': 'measured variance {measured}, theory {theory}',
    'scale.offAxis': '{count} more values beyond ±{range}',
    'scale.curve': 'Dashed: the normal distribution with variance 1, for comparison.',
    'scale.axis': 'score',
    'scale.chartLabel': 'Histogram of {name}: measured variance {measured}, theory {theory}.',
    'scale.rowTitle': '2. One row of scores through softmax',
    'scale.rowText':
      'One query q scores {keys} keys k, then softmax. The larger dₖ, the closer the unscaled weights come to "winner takes all": the largest weight near 1, the entropy near 0.',
    'scale.largest': 'largest weight',
    'scale.entropy': 'entropy (at most ln {keys} = {max})',
    'scale.gradTitle': '3. The gradient of softmax',
    'scale.gradText':
      'The Jacobian of softmax is diag(a) − a·aᵀ; its largest entry is maxᵢ aᵢ(1 − aᵢ), at most 1/4. Once the weights saturate (near 0 or 1) it goes to 0: the gradient vanishes.',
    'scale.gradient': 'largest Jacobian entry',
    'scale.weightsLabel': '{name}: {keys} weights',
    'scale.summary':
      'At dₖ = {dk}, unscaled: largest weight {noneLargest}, gradient {noneGrad}; divided by √dₖ: largest weight {sqrtLargest}, gradient {sqrtGrad}.',
  },
};
