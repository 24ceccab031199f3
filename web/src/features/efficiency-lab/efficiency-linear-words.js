// The words of the efficiency lab's linear-attention panel, in both languages.
export default {
  'zh-CN': {
    'eff.linear.title': '线性注意力',
    'eff.linear.lede':
      '把 softmax 里的 exp 换成一个特征映射 φ(x) = elu(x) + 1(x > 0 时是 x + 1,x ≤ 0 时是 eˣ,总是正数),权重就变成 Aᵢⱼ = φ(qᵢ)·φ(kⱼ) / Σⱼ φ(qᵢ)·φ(kⱼ)。没有了 exp,矩阵乘法的结合律就能用上:先算 φ(Q)φ(K)ᵀ 再乘 V,和先算 φ(K)ᵀV 再让 φ(Q) 去乘,是同一个结果。',
    'eff.linear.orders.title': '两种顺序,同一个结果',
    'eff.linear.orders.text':
      '(φ(Q)φ(K)ᵀ)V 要先摆出 n×n 的表;φ(Q)(φ(K)ᵀV) 只需要一张 dₖ×dᵥ 的小表。计算核心把两种顺序都算了一遍,逐个比较(只差在浮点舍入上):',
    'eff.linear.counts.title': '乘加次数:n²·d 对 n·d²',
    'eff.linear.counts.text':
      '计算核心按这次的形状(n = {n},dₖ = {dk},dᵥ = {dv})数出的乘加次数。n 比 d 大时,第二种顺序少做;n 比 d 小时反过来。',
    'eff.linear.order.quadratic': '(φ(Q)φ(K)ᵀ)V',
    'eff.linear.order.linear': 'φ(Q)(φ(K)ᵀV)',
    'eff.linear.counts.head': '乘加次数',
    'eff.linear.order.head': '顺序',
    'eff.linear.counts.fewer.linear': '这里第二种顺序少做 {times} 倍。',
    'eff.linear.counts.fewer.quadratic': '这里第一种顺序少做 {times} 倍:n 还不够大。',
    'eff.linear.counts.same': '这里两种顺序一样多。',
    'eff.linear.price.title': '代价:权重不再是 softmax 的',
    'eff.linear.price.text':
      '同样的 Q、K、V,softmax(QKᵀ/√dₖ) 的每一行权重和线性注意力的每一行有多远?用 KL 散度 KL(softmax 行 ‖ 线性行) = Σⱼ pᵢⱼ·ln(pᵢⱼ / aᵢⱼ) 来量(单位 nat;两行相同时为 0):',
    'eff.linear.kl.head': 'KL 散度',
    'eff.linear.kl.rows': '查询',
    'eff.linear.kl.row': '第 {i} 行',
    'eff.linear.kl.largest': '最大的一行:第 {row} 行,KL = {kl}。',
    'eff.linear.output': '输出和 softmax 注意力的输出相比:',
    'eff.linear.weights.softmax': 'softmax 的权重',
    'eff.linear.weights.linear': '线性注意力的权重',
    'eff.linear.tooWide': '权重有 {rows} 行 {cols} 列,这里不一一列出;上面的 KL 覆盖了每一行。',
    'eff.linear.announce': '两种顺序最大差 {orders};KL 最大 {kl}。',
  },
  en: {
    'eff.linear.title': 'Linear attention',
    'eff.linear.lede':
      'Replace the exp in the softmax by a feature map φ(x) = elu(x) + 1 (x + 1 for x > 0, eˣ for x ≤ 0: always positive), and the weights become Aᵢⱼ = φ(qᵢ)·φ(kⱼ) / Σⱼ φ(qᵢ)·φ(kⱼ). Without the exp, matrix products are associative again: φ(Q)φ(K)ᵀ first and then V, or φ(K)ᵀV first and then φ(Q) — the same result.',
    'eff.linear.orders.title': 'Two orders, one result',
    'eff.linear.orders.text':
      '(φ(Q)φ(K)ᵀ)V lays out an n×n table first; φ(Q)(φ(K)ᵀV) needs only a small dₖ×dᵥ one. The core computed both orders; compared value by value (they differ only by floating-point rounding):',
    'eff.linear.counts.title': 'Multiply-adds: n²·d against n·d²',
    'eff.linear.counts.text':
      'The multiply-adds as the core counts them for this shape (n = {n}, dₖ = {dk}, dᵥ = {dv}). With n larger than d the second order does less; with n smaller, the first.',
    'eff.linear.order.quadratic': '(φ(Q)φ(K)ᵀ)V',
    'eff.linear.order.linear': 'φ(Q)(φ(K)ᵀV)',
    'eff.linear.counts.head': 'multiply-adds',
    'eff.linear.order.head': 'order',
    'eff.linear.counts.fewer.linear': 'Here the second order does {times} times fewer.',
    'eff.linear.counts.fewer.quadratic': 'Here the first order does {times} times fewer: n is not large enough yet.',
    'eff.linear.counts.same': 'Here both orders do as many.',
    'eff.linear.price.title': 'The price: the weights are no longer softmax’s',
    'eff.linear.price.text':
      'On the same Q, K, V, how far is each row of softmax(QKᵀ/√dₖ)’s weights from the same row of linear attention’s? Measured by the KL divergence KL(softmax row ‖ linear row) = Σⱼ pᵢⱼ·ln(pᵢⱼ / aᵢⱼ) (in nats; 0 when the rows are equal):',
    'eff.linear.kl.head': 'KL divergence',
    'eff.linear.kl.rows': 'query',
    'eff.linear.kl.row': 'row {i}',
    'eff.linear.kl.largest': 'The largest: row {row}, KL = {kl}.',
    'eff.linear.output': 'The output, against softmax attention’s output:',
    'eff.linear.weights.softmax': 'softmax’s weights',
    'eff.linear.weights.linear': 'linear attention’s weights',
    'eff.linear.tooWide':
      'The weights have {rows} rows and {cols} columns, too many to list here; the KL above covers every row.',
    'eff.linear.announce': 'Largest difference of the two orders {orders}; largest KL {kl}.',
  },
};
