// The words of the efficiency lab's shared-heads panel (MQA / GQA), in both languages.
export default {
  'zh-CN': {
    'eff.heads.title': '共享键值头(MQA / GQA)',
    'eff.heads.lede':
      '多头注意力让模型“分头并进”:h 个头各有自己的 Q、K、V。解码时要缓存的是 K 和 V,头越多,缓存越大。共享键值头的做法是:h 个查询头仍然各有自己的 Q,但只保留 g 个键值头,每 h/g 个查询头一组,共用一组 K、V(g = 1 叫 MQA,1 < g < h 叫 GQA)。',
    'eff.heads.h': '查询头 h',
    'eff.heads.g': '键值头 g',
    'eff.heads.indivisible': 'g = {g} 不能整除 h = {h}:每个键值头要服务同样多的查询头。请选 {choices}。',
    'notice.linkLab.indivisible':
      '这个链接的 {field} 字段(g = {text})不能整除 h = {h}:每个键值头要服务同样多的查询头。g 改用 1;链接的其余部分照常打开。',
    'eff.heads.source.reader':
      '用上面的 Q、K、V:把 dₖ = {dk} 列、dᵥ = {dv} 列平分给 {h} 个头,每个头 {dkHead} 列和 {dvHead} 列。',
    'eff.heads.source.random':
      '上面的 dₖ = {dk}、dᵥ = {dv} 不能平分给 {h} 个头,所以这里用 n = {n} 的随机输入(种子 {seed}),每个头 {dkHead} 列和 {dvHead} 列。',
    'eff.heads.groups': '分组:{groups}。每组的 K、V 取组内各头 K、V 的平均(把训练好的多头模型改成分组时常用的做法)。',
    'eff.heads.group': '键值头 {g} ← 查询头 {heads}',
    'eff.heads.groupSep': ';',
    'eff.heads.same.title': '分组注意力 = 把每组的 K、V 复制给组内每个头的多头注意力',
    'eff.heads.same.text':
      '左边是计算核心的 attentionGrouped;右边是一个头一个头地做普通注意力,每个头用它那一组的 K、V 的复制品。两边逐个比较:',
    'eff.heads.cache.title': 'KV 缓存:÷ h/g',
    'eff.heads.cache.text':
      '每个位置要缓存每个键值头的一行 K(dₖ 个数)和一行 V(dᵥ 个数),每个数 4 字节:n·头数·(dₖ + dᵥ)·4 字节。',
    'eff.heads.cache.what': '缓存的是',
    'eff.heads.cache.bytes': '字节',
    'eff.heads.cache.full': '{h} 个头各自的 K、V',
    'eff.heads.cache.shared': '{g} 个共享的键值头',
    'eff.heads.cache.ratio': '缩小到 1/{ratio}(h/g = {h}/{g})',
    'eff.heads.price.title': '代价:和各头自有 K、V 的多头注意力不再相同',
    'eff.heads.price.text':
      '同样的 Q,如果每个头仍用它自己的 K、V(完整的多头注意力),输出就是另一回事了。共享省下了缓存,换来的是这个差别:',
    'eff.heads.output.grouped': '分组注意力的输出',
    'eff.heads.output.full': '各头自有 K、V 的输出',
    'eff.heads.output.head': '头 {i}',
    'eff.heads.output.row': '第 {i} 行',
    'eff.heads.tooWide': '输出有 {rows} 行 {cols} 列,这里不一一列出;上面的比较覆盖了每一个数。',
    'eff.heads.announce': 'h = {h},g = {g}:KV 缓存缩小到 1/{ratio};与完整多头注意力的最大差 {largest}。',
  },
  en: {
    'eff.heads.title': 'Shared key–value heads (MQA / GQA)',
    'eff.heads.lede':
      'Multi-head attention lets the model work "in parallel heads": h heads, each with its own Q, K and V. In decoding it is K and V that are cached, so the more heads, the larger the cache. Sharing key–value heads keeps h query heads, each with its own Q, but only g key–value heads: every h/g query heads form a group that reads one K and one V (g = 1 is MQA, 1 < g < h is GQA).',
    'eff.heads.h': 'Query heads h',
    'eff.heads.g': 'Key–value heads g',
    'eff.heads.indivisible':
      'g = {g} does not divide h = {h}: every key–value head must serve the same number of query heads. Choose {choices}.',
    'notice.linkLab.indivisible':
      "This link's {field} field (g = {text}) does not divide h = {h}: every key–value head must serve the same number of query heads. g = 1 was used instead; the rest of the link opens as it is.",
    'eff.heads.source.reader':
      'With the Q, K, V above: dₖ = {dk} and dᵥ = {dv} columns shared out among {h} heads, {dkHead} and {dvHead} columns each.',
    'eff.heads.source.random':
      'dₖ = {dk} and dᵥ = {dv} above cannot be shared out evenly among {h} heads, so this uses random inputs of n = {n} (seed {seed}), {dkHead} and {dvHead} columns per head.',
    'eff.heads.groups':
      'Groups: {groups}. Each group’s K and V are the mean of its heads’ K and V (the usual way to turn a trained multi-head model into a grouped one).',
    'eff.heads.group': 'key–value head {g} ← query heads {heads}',
    'eff.heads.groupSep': '; ',
    'eff.heads.same.title':
      'Grouped attention = multi-head attention with each group’s K, V copied to every head of the group',
    'eff.heads.same.text':
      'On one side the core’s attentionGrouped; on the other, plain attention head by head, each head with a copy of its group’s K and V. Compared value by value:',
    'eff.heads.cache.title': 'The KV cache: ÷ h/g',
    'eff.heads.cache.text':
      'Each position caches one row of K (dₖ numbers) and one of V (dᵥ numbers) per key–value head, 4 bytes a number: n·heads·(dₖ + dᵥ)·4 bytes.',
    'eff.heads.cache.what': 'cached',
    'eff.heads.cache.bytes': 'bytes',
    'eff.heads.cache.full': '{h} heads, each its own K, V',
    'eff.heads.cache.shared': '{g} shared key–value heads',
    'eff.heads.cache.ratio': '1/{ratio} of it (h/g = {h}/{g})',
    'eff.heads.price.title': 'The price: no longer multi-head attention with each head’s own K, V',
    'eff.heads.price.text':
      'With the same Q, had every head kept its own K and V (full multi-head attention), the output would be another. This difference is what the smaller cache costs:',
    'eff.heads.output.grouped': 'Grouped attention’s output',
    'eff.heads.output.full': 'The output with each head’s own K, V',
    'eff.heads.output.head': 'head {i}',
    'eff.heads.output.row': 'row {i}',
    'eff.heads.tooWide':
      'The output has {rows} rows and {cols} columns, too many to list here; the comparisons above cover every one of them.',
    'eff.heads.announce':
      'h = {h}, g = {g}: the KV cache shrinks to 1/{ratio}; largest difference from full multi-head attention {largest}.',
  },
};
