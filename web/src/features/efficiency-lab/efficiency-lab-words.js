// The efficiency lab's own words (its title, its inputs, its row of panels, the popover), in both
// languages. The lede quotes the article's §8, which promises this chapter.
export default {
  'zh-CN': {
    'view.efficiency-lab': '效率与变体',
    'eff.lede':
      '§8 留下的伏笔:n × n 的分数矩阵“正是长文本场景下的主要瓶颈,也是本系列第 10 篇‘效率与变体’要重点解决的问题”。这里把你的 Q、K、V 送进几条更省的路径,每条都和完整的 n² 注意力放在一起:每个数都摆出来,点一下看它的算式;两边是否相等,由页面当场算出来。',
    'eff.inputs': '输入',
    'eff.input.page': '页面上的 Q、K、V',
    'eff.input.cat': '它 是 猫',
    'eff.input.random': '随机',
    'eff.n': '词数 n',
    'eff.seed': '种子',
    'eff.shape': 'n = {n},dₖ = {dk},dᵥ = {dv}',
    'eff.noInputs': '页面上的输入现在算不出结果(先在“九个步骤”里把它改好),也可以选“它 是 猫”或“随机”。',
    'eff.panels': '高效注意力的几条路径',
    'eff.error': '无法计算:{message}',
    'eff.field.range': '请输入 {min} 到 {max} 之间的整数。',
    'eff.first': '第一步',
    'eff.prev': '上一步',
    'eff.next': '下一步',
    'eff.last': '最后一步',
    'eff.stepKeys': '焦点在这一排按钮上时:← / → 上一步、下一步,Home / End 第一步、最后一步;滑块可以直接跳到任何一步。',
    'eff.equal': '逐个相同:{count} 个数全部相等(float32)。',
    'eff.differ': '最大差 |Δ| = {largest}({differing} / {count} 个数不同)。',
    'eff.tauOne': '页面上的温度 τ = {tau} 在这里不起作用:这条路径的接口没有 τ,两边都按 τ = 1 计算。',
  },
  en: {
    'view.efficiency-lab': 'Efficiency and variants',
    'eff.lede':
      '§8 leaves a promise: the n × n score matrix "is the main bottleneck for long texts, and what article 10 of this series, ‘efficiency and variants’, sets out to solve". Here your Q, K, V go through cheaper paths, each beside the full n² attention: every number is on screen and opens into its arithmetic, and whether the two sides agree is computed by the page, there and then.',
    'eff.inputs': 'Inputs',
    'eff.input.page': 'The page’s Q, K, V',
    'eff.input.cat': 'it is cat',
    'eff.input.random': 'Random',
    'eff.n': 'Words n',
    'eff.seed': 'Seed',
    'eff.shape': 'n = {n}, dₖ = {dk}, dᵥ = {dv}',
    'eff.noInputs':
      'The page’s inputs give no result right now (fix them in “The nine steps” first), or choose “it is cat” or “Random”.',
    'eff.panels': 'The paths of efficient attention',
    'eff.error': 'Could not compute: {message}',
    'eff.field.range': 'Enter a whole number from {min} to {max}.',
    'eff.first': 'First',
    'eff.prev': 'Previous',
    'eff.next': 'Next',
    'eff.last': 'Last',
    'eff.stepKeys':
      'With the focus on these buttons: ← / → previous and next, Home / End first and last; the slider jumps to any step.',
    'eff.equal': 'Equal value for value: all {count} numbers are the same (float32).',
    'eff.differ': 'Largest difference |Δ| = {largest} ({differing} of {count} numbers differ).',
    'eff.tauOne':
      'The page’s temperature τ = {tau} plays no part here: this path takes no τ, and both sides are computed at τ = 1.',
  },
};
