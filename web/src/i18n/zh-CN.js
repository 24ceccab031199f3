// 中文词典(默认语言)。措辞沿用原文《Transformer 由浅入深》第 3 篇。
// 键与 en.js 一一对应(tests/web/i18n.test.mjs 检查);{name} 是填入的数值。
export default {
  'app.title': '注意力机制演练场',
  'app.subtitle': '一步一步走完 softmax(QKᵀ/√dₖ)·V:先用原文的手算小例子,再换成你自己的数字。',
  'app.loading': '正在加载计算核心(WebAssembly)……',
  'app.engineFailed': '计算核心加载失败:{message}',
  'app.partFailed': '页面的这一部分加载失败:{message}',
  'app.skip': '跳到当前步骤',
  'app.footer': '所有数字都由 WebAssembly 中的 C++ 核心以 float32 计算;页面只负责显示。',

  // The article the page follows (article.js), and the series' next one.
  'article.source': '原文:',
  'article.name': '《Transformer 由浅入深》系列第 3 篇 · 阶段二「核心机制」',
  'article.sections': '第 1–8 节',
  'article.short': '《Transformer 由浅入深》第 3 篇',
  'article.section': '原文:{article}第 {section} 节',
  'article.sectionBack': '反向传播(原文没有这一步):把{article}第 {section} 节倒过来算',
  'article.next': '第 4 篇:多头注意力',
  'article.nextOffer':
    '原文到这里就讲完了。下一篇是本系列的第 4 篇:一组 W_Q/W_K/W_V 只能学到一种"什么算相关",多头注意力让模型"分头并进"。',
  'article.nextOpen': '用 2 个头再算一遍"它 是 猫" →',
  'notice.linkWords.count':
    '链接里的 words 字段有 {count} 个词,而 n = {n}:多出的词已去掉,没有词的行用序号标注;链接的其余部分照常打开。',
  'notice.linkWords.badWords':
    '链接里的 words 字段("{text}")无法读取:词之间用逗号隔开,一个词最多 {max} 个字符。各行改用序号标注;链接的其余部分照常打开。',
  'notice.linkTrain': '这个链接的 {field} 字段(“{text}”)读不出,用了默认值;链接的其余部分照常打开。',
  'notice.linkArticle': '链接里的 article 字段("{text}")不是 https: 网址,已忽略;链接的其余部分照常打开。',

  'embed.button': '嵌入',
  'embed.title': '把这一步嵌入博客文章',
  'embed.help':
    '把下面的代码粘贴到文章的 HTML 里:框架显示当前这一步(连同现在的例子和选项),高度随内容自动调整。框架运行在 sandbox="allow-scripts" 的沙箱里,读不到博客页面的任何内容,也不会在读者的浏览器里存任何东西。',
  'embed.fields':
    '链接 # 后面的字段都可以改:step=1…{steps} 选步骤,panel=1 加上输入面板,nav=1 加上步骤导航,lang=en 换成英文界面,article=https://… 让“原文”链接到你的文章。',
  'embed.needsServer':
    '嵌入需要把演练场放到网站上(dist/site 文件夹可以原样放到任何静态网站)。当前页面不是从网站打开的,博客里的框架无法加载读者电脑上的文件。',
  'embed.devServer':
    '这是开发用的页面(npm start),沙箱框架加载不了它:代码指向的是这个服务器在 site/ 下同时提供的自包含版本(dist/site,由 npm run build 生成)。要嵌入博客,请把 dist/site 文件夹放到你的网站上,并把代码里的地址改成它。',
  'embed.frameFailed':
    '演练场无法在这个框架里启动:这个页面的脚本没有加载。博客里的框架需要放在网站上的自包含版本 dist/site/index.html(npm run build 生成)。',
  'embed.copy': '复制代码',
  'embed.copied': '代码已复制。',
  'embed.copyFailed': '无法写入剪贴板:代码已选中,请按 Ctrl+C(Mac 上 ⌘+C)复制。',
  'embed.close': '关闭',
  'embed.open': '在演练场中打开',
  'offline.download': '下载离线版',
  'offline.downloadHint': '一个 HTML 文件:放在 U 盘里,在没有网络的电脑上双击打开即可使用。',
  'app.build': '构建 {build}',

  'lang.switch': 'English',
  'lang.switchLabel': '切换到英文界面',
  'theme.label': '配色',
  'theme.system': '配色:跟随系统',
  'theme.light': '配色:浅色',
  'theme.dark': '配色:深色',
  'link.copy': '复制链接',
  'link.copied': '链接已复制,打开它会恢复完全相同的视图。',
  'link.copyFailed': '无法写入剪贴板,请从地址栏复制链接。',

  'nav.label': '步骤',
  'nav.prev': '上一步',
  'nav.next': '下一步',
  'nav.position': '第 {step} / {total} 步',
  'nav.keys': '提示:← / → 键切换步骤。',

  'step.x.title': '输入矩阵 X',
  'step.x.text':
    '一句话有 n 个 token,每个 token 先被表示成一个 d 维向量。把它们摞起来,就是输入矩阵 X:n 行、d 列,一行是一个词。可以把 X 想象成一张 Excel 表格:每一行是一个词,每一列是这个词的某种属性打分——只不过这些"属性"是模型在训练里自己琢磨出来的一组数字坐标。',
  'step.x.qkvMode':
    '当前是"直接给出 Q、K、V"模式:原文第 7 节的例子跳过了 X 和投影,直接给出算好的 Q、K、V。想看投影,请在右侧切换到"从 X 经 W_Q/W_K/W_V"模式。',
  'step.project.title': '三个投影:得到 Q、K、V',
  'step.project.text':
    'Q/K/V 是"同一个词的三副面孔":把 X 分别乘上三个可学习的权重矩阵。W_Q 是"提问装",W_K 是"应答装",W_V 是"内容装"。同一个原始向量,乘上不同的权重矩阵,就被"打扮"成了适合不同用途的三个新向量。Q 的每行是一个词的"提问",K 的每行是它的"标签",V 的每行是它的"内容"。',
  'step.scores.title': '打分:QKᵀ',
  'step.scores.text':
    '两个向量的匹配度,最简单的度量就是点积(对应位相乘再求和):点积越大,方向越一致,越"相关"。把所有词的 Q 和所有词的 K 两两点积,就是 S = QKᵀ。S 的第 i 行第 j 列,就是"第 i 个词的提问 · 第 j 个词的标签"——第 i 个词对第 j 个词的关注原始分。转置只是把 K "摆正"到能相乘的姿势,不改变任何数值。',
  'step.scale.title': '缩放:除以 √dₖ',
  'step.scale.text':
    '维度 dₖ 越大,点积的波动范围就越大:若 q、k 的每个分量独立、均值 0、方差 1,则 Var(q·k) = dₖ,标准差约为 √dₖ。数值太大时 softmax 会变得极度"尖锐",几乎把全部权重压到最大的那一项上,梯度变得非常小。除以 √dₖ,把方差重新拉回 1,softmax 始终工作在"听得进梯度"的健康区间。',
  'step.max.title': '减去每行最大值',
  'step.max.text':
    '工程上会做一个数值稳定处理:softmax 前先减去每行最大值。因为 eˣ 涨得极快,x 稍大(比如 1000)就会溢出成无穷大;而给每个数同时减去一个常数,softmax 的结果一分不差。减去该行最大值后,最大的那项变成 e⁰ = 1,其余都是 0 到 1 之间的小数,既不溢出,结果又完全等价。',
  'step.max.title.column': '减去每列最大值',
  'step.max.text.column':
    '误区演示(按列):数值稳定处理改为在 softmax 前减去每一列的最大值。它同样防止 eˣ 溢出,每列减去同一个常数也不改变按列 softmax 的结果——但这样每一列被当成一个分布,这不是注意力的做法。',
  'step.max.naive': '当前是朴素 softmax:不减最大值,直接对缩放后的分数取指数。下表仍列出每行最大值,只作对照。',
  'step.exp.title': '取指数 exp',
  'step.exp.text':
    'softmax 的第一件事:通过指数运算 eˣ,把分数高的进一步拉高、分数低的进一步压低,从而强者更强,但弱者不至于完全消失——e⁰ = 1 并不为 0,所以任何词都会保留一份非零的注意力。',
  'step.sum.title': '每行求和',
  'step.sum.text':
    'softmax 的第二件事是除以总和。先把每一行的指数加起来:这一行的总和,就是这个词要分出去的"整块蛋糕"。"逐行"是重点:每一行代表一个特定的词如何分配它自己的注意力预算。',
  'step.sum.title.column': '每列求和',
  'step.sum.text.column':
    '按列的 softmax 改为把每一列的指数加起来:这是"所有词投给第 j 个词的注意力"之和,而不是哪个词自己的预算。"逐行"才是注意力的重点;这里按列求和,是为了演示这个误区。',
  'step.weights.title': '归一化:权重 A',
  'step.weights.text':
    '每个指数除以所在行的总和,第 i 行就变成一组总和为 1 的权重,代表"第 i 个词该把注意力如何分配给全句各词"。每个词分到的注意力,就是它在这一行里应得的那块蛋糕,而整块蛋糕的大小固定是 100%(每行右侧的 Σ)。',
  'step.weights.text.column':
    '每个指数除以所在列的总和,于是每一列加起来是 1(每列下方的 Σ)。而每一行——每个词自己的注意力分配——不再保证加起来是 1:请对照每行右侧的 Σ。',
  'step.output.title': '加权:乘以 V',
  'step.output.text':
    '最后一步,用权重矩阵 A 去加权汇总所有词的 Value:output_i = Σⱼ A_ij v_j。这一步可以理解成"按比例调鸡尾酒":softmax 已经定好了配方,这一步把各个词的 Value 按比例兑在一起。Q 和 K 只负责"算配方",真正被舀进碗里的内容来自 V。',

  'stage.formula': '公式(当前步骤的部分已高亮)',

  'article.weights':
    '值得玩味的细节:打分时两个词明明是"自己和自己满分 1、和对方零分",可经过 softmax,对方依然分到了 0.33 而不是 0。softmax 从不会把谁彻底"清零"——哪怕相关性为 0,也会保留一丝注意力。',
  'article.output':
    '读一下结果:第一个词的新表示是 [6.7, 3.3]——大部分来自自己(权重 0.67),小部分混入了第二个词。注意力就这样把上下文揉了进来。',

  'mat.x': '输入:每行一个词',
  'mat.wq': '"提问装"(可学习参数)',
  'mat.wk': '"应答装"(可学习参数)',
  'mat.wv': '"内容装"(可学习参数)',
  'mat.q': '每行 = 一个词的"提问"',
  'mat.k': '每行 = 一个词的"标签"',
  'mat.v': '每行 = 一个词的"内容"',
  'mat.scores': '第 i 个词对第 j 个词的关注原始分',
  'mat.scaled': '缩放后的分数',
  'mat.rowMax': '每行最大值',
  'mat.colMax': '每列最大值',
  'mat.shifted': '减去最大值后(每行最大为 0)',
  'mat.exps': '指数',
  'mat.rowSum': '每行之和',
  'mat.colSum': '每列之和',
  'mat.weights': '注意力权重(每行之和为 1)',
  'mat.weightsColumn': '按列 softmax 的"权重"(每列之和为 1)——误区',
  'mat.output': '输出:每个词一行新表示',
  'mat.rowTotal': 'Σ 行',
  'mat.colTotal': 'Σ 列',
  'mat.cell': '{name} 第 {i} 行第 {j} 列',
  'mat.heatmapOnly': '{rows}×{cols},尺寸大于 16,只显示热力图(不显示数字)。',
  'mat.masked': '已遮住',

  'legend.masked': '灰色:被掩码遮住(−∞,权重为 0)或不是有限数',

  'explain.heading': '第 {i} 个词对第 {j} 个词的权重是怎么来的',
  'explain.headingWords': '“{i}”对“{j}”的权重是怎么来的',
  'explain.outputHeading': '{i}的输出,第 {c} 维:按权重混合各词的 Value',
  'explain.outputTerms': '权重 A_ij × 第 j 个词 Value 的这一维,逐项相乘',
  'explain.dot': '点积:对应位相乘',
  'explain.scale': '缩放',
  'explain.exp': '减最大值后取指数',
  'explain.expNaive': '直接取指数(朴素 softmax,不减最大值)',
  'explain.norm': '除以行和,得到权重',
  'explain.normColumn': '除以列和(按列 softmax,误区)',

  // visual story (issue 10)
  'stage.controls': '这一步的开关',
  'map.x': '输入',
  'map.project': '投影',
  'map.scores': '打分',
  'map.scale': '缩放',
  'map.max': '减最大值',
  'map.exp': '取指数',
  'map.sum': '求和',
  'map.weights': '权重',
  'map.output': '加权',
  'map.noX': '当前直接给出 Q、K、V,没有 X',
  'mat.kTransposed': '每行 = 一个词的"标签"(转置后相乘:Kᵀ)',
  'mat.expsArticle': '原文的手算:不减最大值,直接取 eˣ',
  'article.sameWeight': '两种算法,同一个权重:',
  'article.sameWhy':
    '给一行的每个数同时减去一个常数(这一行的最大值),分子分母同乘一个数,softmax 的结果一分不差。原文手算的 exp(0.71) ≈ 2.03、总和 3.03,和页面稳定版的 1、1.493,得到的是同一个 0.67。',
  'legend.seqScale': '颜色:0 → 本矩阵的最大值',
  'legend.divScale': '颜色:负 ← 0 → 正,按本矩阵的最大绝对值',
  'legend.side': '旁边一列:每行的最大值或总和,只是数字,不上色',
  'explain.moreTerms': '… 还有 {count} 项',
  'explain.close': '关闭',
  'explain.rounding': '每个数都按它所在矩阵的精度显示;逐项手算时最后一位可能差 1。',
  'explain.maskedScore': '因果掩码:第 {j} 个词在第 {i} 个词之后,掩码把缩放后的分数设为 −∞',
  'explain.maskedExp': 'e 的 −∞ 次方是 0',
  'explain.maskedWeight': '所以权重恰好是 0',
  'explain.expColumn': '减去这一列的最大值后取指数(按列 softmax,误区)',
  'mix.title': '{word}的输出 = 按权重混合各词的 Value',
  'mix.wordN': '第 {i} 个词',
  'mix.text':
    '前面 softmax 已经定好了配方(每个词占多少比例),这一步把各个词的 Value 按这个比例兑在一起。点一个词,看它的这一行。',
  'mix.pickRow': '看哪个词的输出',
  'mix.word': '词',
  'mix.weight': '权重(A 第 {i} 行)',
  'mix.value': '这个词的 Value(V 的一行)',
  'mix.total': '加起来',
  'mix.more': '只列出权重最大的 {shown} 个词;其余 {count} 个词也按各自的权重加在里面。',
  'lines.caption':
    '每条线连接两个词,线越粗,左边的词分给右边的词的权重越大(A 的一行)。点左边的词,突出它的线,并在线上写出权重;鼠标停在一条线上,显示它的权重。',
  'lines.summary': '“{word}”分给各词的权重:{weights}。',
  'engine.build.relaxed':
    '计算核心:relaxed SIMD 构建(WebAssembly SIMD,快速路径用融合乘加;页面上的每一步仍用与 SIMD128 构建相同的 SIMD128 循环算出)',
  'engine.build.simd': '计算核心:SIMD128 构建(WebAssembly SIMD)',
  'engine.build.scalar': '计算核心:标量构建(这个浏览器不支持 WebAssembly SIMD,SIMD 路径的循环以标量指令运行)',
  'engine.path.simd': '页面上的数字由 SIMD 路径算出',
  'engine.path.reference': '页面上的数字由参考实现(逐项的朴素循环)算出',
  'engine.reference': '参考实现',
  'engine.same': '与 SIMD 路径相比:每个数逐位相同。',
  'engine.difference': '与 SIMD 路径相比,最大差异 {value}({name} 第 {i} 行第 {j} 列)。',
  'engine.why':
    '两条路径可能在最后一位不同:SIMD 循环把浮点数按另一种顺序相加(指数也用 xsimd 自己的算法),float32 的舍入因此略有不同。',
  'editor.filled': '{names} 变大了:新增的格子填入了随机数(虚线框),可以逐格修改。',
  'list.and': '、',
  'preset.randomScale':
    'X 和 Q、K、V 的数在 −2 到 2 之间;W 的数在 ±√(3/d) 之间(方差 1/d),所以 Q、K 的数与 X 一样大,缩放后分数的标准差期望约为 1.3,不随维度增大:权重有差别,又不至于"赢家通吃"(64 个词时每行最大权重平均约 0.16)。',

  'panel.label': '输入与选项',
  'panel.inputs': '输入',
  'panel.options': '原文的要点,做成开关',
  'preset.label': '示例',
  'preset.article': '原文手算例子(第 7 节)',
  'preset.cat': '"它 是 猫"(3 个词 × 4 维)',
  'preset.overflow': '分数约 1000(溢出演示)',
  'preset.random': '随机(可设种子)',
  'preset.custom': '自定义(已编辑)',
  'preset.illustrative': 'X 与 W_Q、W_K、W_V 的数值是为演示而手选的,并非训练所得。',
  'mode.label': '输入方式',
  'mode.x': '从 X 经 W_Q/W_K/W_V',
  'mode.qkv': '直接给出 Q、K、V',
  'size.n': 'n(词数)',
  'size.d': 'd(输入维度)',
  'size.dk': 'dₖ(Q、K 维度)',
  'size.dv': 'dᵥ(V 维度)',
  'words.label': '句子里的词',
  'words.hint': '每个词是 {matrix} 的一行,共 n = {n} 个,用空格或逗号隔开;留空则各行用序号 1…n 标注。',
  'size.seed': '随机种子',
  'undo.label': '编辑历史',
  'undo.undo': '撤销',
  'undo.redo': '重做',
  'undo.undoKeys': '撤销上一次编辑(Ctrl+Z)',
  'undo.redoKeys': '重做刚撤销的编辑(Ctrl+Shift+Z 或 Ctrl+Y)',
  'editor.reset': '把 {name} 恢复成例子的数值',
  'editor.paste': '粘贴整个矩阵',
  'editor.pasteHint':
    '可粘贴 NumPy 形式 [[1, 0], [0, 1]]、CSV,或每行一行、空格分隔;全角数字和减号"−"也可以。形状不同时会自动调整尺寸。',
  'editor.apply': '应用',
  'editor.large': '列数大于 16:太宽,无法逐格输入,请用"粘贴整个矩阵"编辑。',

  'opt.scale': '缩放方式',
  'opt.scale.sqrt_dk': '÷ √dₖ(原文)',
  'opt.scale.dk': '÷ dₖ',
  'opt.scale.none': '不缩放',
  'opt.scale.faq': '为什么是除以 √dₖ?',
  'opt.scale.faqText':
    '因为点积的方差随维度增长到 dₖ,而标准差(也就是数值的典型波动幅度)是方差的平方根,即 √dₖ。我们要抵消的是"波动幅度"这个尺度,所以除以 √dₖ 正好把方差拉回 1。若除以 dₖ,反而会把分数压得过小,差距被抹平,注意力变得过于"平均",同样不利。',
  'opt.temperature': '温度 τ(缩放后再除以 τ)',
  'opt.temperatureHint': 'τ < 1 让分配更尖锐,τ > 1 让分配更平均。',
  'opt.mask': '因果掩码(每个词只能看到自己和前面的词)',
  'opt.softmax': 'softmax 的算法',
  'opt.softmax.stable': '稳定版(先减每行最大值)',
  'opt.softmax.naive': '朴素版(直接取指数)',
  'opt.softmax.hint': '选"分数约 1000"的示例再切到朴素版:e¹⁰⁰⁰ 溢出成 ∞,∞/∞ 得到 NaN。',
  'opt.axis': 'softmax 的方向',
  'opt.axis.row': '按行(正确)',
  'opt.axis.column': '按列(常见误区)',
  'opt.axis.faq': 'softmax 为什么必须"按行"做?',
  'opt.axis.faqText':
    '每一行代表"一个词如何分配它自己的注意力预算",这份预算必须是该词独有的 100%。按行做,才能保证每个词的权重各自加起来等于 1、互不干涉。按列做算出来的是"大家对某个词的关注占比",含义完全不同;整张表一起做则把不同词的预算混在了一起,都是错的。',
  'opt.digits': '显示精度',
  'opt.digits.value': '{digits} 位有效数字',

  'notice.updated': '演练场有了新版本,已在后台下载;刷新页面即可使用。',
  'notice.badHash': '链接里的状态无法解析,已恢复为原文的默认例子。',
  'notice.naive':
    '朴素 softmax 不减最大值:分数一大(比如 1000),eˣ 就溢出成 ∞,∞/∞ 变成 NaN——这正是原文第 5 节警告的情况。',
  'notice.naiveUnderflow':
    '出现了 NaN:这不是溢出——某一行的 eˣ 全部下溢成了 0(它的分数都远小于 0,比如 −2000),于是权重成了 0/0。切回"稳定版":减去最大值后,最大的那一项是 e⁰ = 1。',
  'notice.naiveOverflow': '出现了 ∞ 或 NaN:eˣ 溢出了。切回"稳定版"看看减最大值如何避免它。',
  'notice.column':
    '误区演示:这里按列做了 softmax。每列之和为 1,而每行不再是 1——算出来的是"大家对某个词的关注占比",不是每个词自己的注意力分配。',
  'notice.columnAgrees':
    '误区演示:softmax 是按列做的,所以每一列加起来是 1(每列下方的 Σ)。在这组数上,每一行恰好也加起来是 1——文章的例子就是这样,它的 S 是对称的(Q = K)。大多数数值并非如此:试试例子"它 是 猫",那里 Q ≠ K。',
  'notice.scale.dk': '当前除以 dₖ 而不是 √dₖ:这会把分数压得过小,差距被抹平,注意力变得过于"平均"。',
  'notice.scale.none': '当前不缩放:dₖ 越大,点积的波动越大(方差为 dₖ),softmax 越容易变成"赢家通吃"。',
  'notice.masked': '因果掩码已打开:第 i 个词看不到它后面的词,那些位置的分数是 −∞,权重是 0。',
  'notice.temperature': '温度 τ = {value}:缩放后的分数再除以 τ。',
  'notice.lastGood': '输入有误,下面仍显示上一次的正确结果。',

  // reliability (issue 9)
  'notice.nonFinite':
    '从第 {step} 步起出现了 ∞ 或 NaN,而所有输入都是有限数:有数超出了 float32 的范围(约 ±3.4×10³⁸),变成了 ∞,之后 ∞ − ∞ 或 ∞/∞ 得到 NaN。请试试更大的温度 τ,或更小的输入。',
  'core.detached_data': '{name} 的数据已不存在:它的缓冲区被转移走了(已分离)。',
  'err.ambiguousComma':
    '"{text}" 既可能是用逗号作小数点的一个数,也可能是两个数:一个数请写成 {decimal},两个数请写成 {pair}。',
  'err.brackets': '方括号没有配对:矩阵请写成 [[1, 2], [3, 4]],每个 "[" 都要有对应的 "]"。',

  'err.empty': '这一格是空的,请填一个数。',
  'err.notNumber': '"{text}"不是数字。',
  'err.nan': '不接受 NaN(非数)。',
  'err.infinite': '不接受 ±∞(无穷大)。',
  'err.tooLarge': '"{text}"超出了 float32 能表示的最大数 ±{max},计算核心里会变成 ±∞。',
  'err.ragged': '第 {row} 行有 {got} 个数,但第 1 行有 {want} 个:每行的个数必须相同。',
  'err.pasteEmpty': '没有读到任何数字。',
  'err.cellIn': '第 {row} 行第 {col} 列:{message}',
  'err.size': '尺寸必须是 1 到 {max} 之间的整数。',
  'err.wordCount': '词数为 {count},而行数 n = {n}:一个词标注一行,词数要等于 n(或把 n 改成 {count})。',
  'err.wordLong': '"{word}"太长:一个词最多 {max} 个字符。',
  'err.seed': '种子必须是 0 到 2147483647 之间的整数。',
  'err.temperature': '温度必须是大于 0 的有限数。',
  'err.temperatureBelow': 'τ = {value} 小于 float32 能表示的最小正数 {min}:计算核心里它会变成 τ = 0。',
  'err.temperatureAbove': 'τ = {value} 超出了 float32 能表示的最大数 {max}:计算核心里它会变成 τ = ∞。',
  'notice.linkLoss.missing':
    '链接里有 loss={loss},却没有它的矩阵 {field}({what}):这里按全 0 计,链接的其余部分照常打开。',
  'notice.linkLoss.shape':
    '链接里的 {field}({what})不是损失需要的 {rows} × {cols}:能对上的格子保留,其余按 0 计,链接的其余部分照常打开。',
  'notice.linkLoss.y': '目标 Y',
  'notice.linkLoss.dout': '给定的 dO',
  'notice.linkTemperature': '这个链接里的温度无法使用,因此显示的是 τ = 1。{message}',
  'err.kept': '{typed} 没有参与计算。{message} 在这个格子改动之前,页面用 {used} 计算。',
  'err.underflow': '{value} 小于 float32 能表示的最小正数 {min}:计算核心按 0 计算。',
  'err.engine': '计算核心拒绝了这个输入:{message}',

  // The core's refusals, one per Error.code (wasm/vocabulary.mjs, ERROR_CODES), worded from the
  // error's numbers by web/src/engine-errors.js; {name} is the matrix as the page names it.
  'core.wrong_length': '{name} 有 {got} 个数,但 {rows}×{cols} 的矩阵需要 {need} 个。',
  'core.empty_matrix': '{name} 至少要有一行一列(现在是 {rows}×{cols})。',
  'core.not_finite': '{name} 在这里是 {value},不是有限数:计算核心只接受有限的输入。',
  'core.dk_mismatch': 'Q 有 dₖ = {need} 列,K 却有 {got} 列:QKᵀ 要求两者的 dₖ 相同。',
  'core.key_value_mismatch': 'K 有 {need} 行(每个词一个键),V 却有 {got} 行:每个键正好对应一行值。',
  'core.projection_mismatch':
    'X 是 {xRows}×{xCols},{name} 却是 {wRows}×{wCols}:X·W 要求 W 的行数等于 X 的列数({xCols})。',
  'core.mask_shape': '掩码是 {rows}×{cols},但分数矩阵是 {needRows}×{needCols}。',
  'core.mask_value': '掩码在这里是 {value}:掩码只能是 0(遮住)或 1(保留)。',
  'core.bad_temperature': '温度必须是大于 0 的有限数(现在是 {value})。',
  'core.too_much_memory': '这个尺寸({rows}×{cols})需要 {bytes} 的工作内存,超过了上限 {limit}。',
  'core.bad_option': '选项 {name} 不接受 {got}。',
  'core.bad_arguments': '调用 {function} 需要一个对象参数(收到的是 {got})。',
  'core.unknown_option': '{function} 没有选项"{name}";可用的选项是 {known}。',
  'core.missing_matrix': '缺少矩阵 {name}。',
  'core.not_a_matrix': '{name} 必须是 { rows, cols, data } 形式的矩阵(收到的是 {got})。',
  'core.bad_dimension': '{name} 的 {field} 必须是不小于 1 的整数(收到的是 {got})。',
  'core.bad_data': '{name} 的数据必须是 Float32Array 或数字数组(收到的是 {got})。',
  'core.not_a_number': '{name} 的第 {index} 个值不是数字(收到的是 {got})。',
  'core.inputs_too_large': '输入共有 {values} 个数({bytes}),超过了模块内存能容纳的 {limit}。',

  'core.gradient_shape': '输出的梯度是 {rows}×{cols},但输出 A·V 是 {needRows}×{needCols}。',
  'core.gradient_not_finite': '输出的梯度在这里是 {value};梯度必须是有限数。',
  'core.disposed': '这个训练器已经释放,不能再使用。',
  'core.out_of_range': '{name} 必须是 {min} 到 {max} 之间的整数(收到的是 {got})。',
  'core.kv_heads_indivisible': '{heads} 个查询头无法平均分成 {kvHeads} 组来共享键值头:键值头的个数必须能整除头数。',
  'core.heads_indivisible': '{name} 有 {cols} 列,{heads} 个头无法把它分成等宽的块:列数必须是 {heads} 的倍数。',
  'core.head_width_mismatch': 'W_Q 有 {need} 列(h·dₖ),W_K 却有 {got} 列:每个头的 Q 和 K 需要相同的 dₖ。',
  'core.wo_mismatch': '各头拼接后有 {need} 列(h·dᵥ),W_O 却有 {got} 行:concat·W_O 需要 {need} 行。',
  'core.projection_overflow': '{name} 在这里是 {value}:X·W 超出了 float32 的范围(溢出)。请把 X 或权重的数值调小。',
  'core.reentrant_call': '计算核心在上一次调用({running})返回之前又被调用了;这次没有计算。',

  // the page's views (the labs name themselves in i18n/labs/)
  'view.steps': '九个步骤',
  'views.label': '视图',
};
