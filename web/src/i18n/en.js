// English dictionary. Same keys as zh-CN.js (checked by tests/web/i18n.test.mjs); {name} is filled in.
export default {
  'app.title': 'Attention Playground',
  'app.subtitle': "Step through softmax(QKᵀ/√dₖ)·V — first on the article's worked example, then on your own numbers.",
  'app.loading': 'Loading the computing core (WebAssembly)…',
  'app.engineFailed': 'The computing core failed to load: {message}',
  'app.partFailed': 'This part of the page failed to load: {message}',
  'app.skip': 'Skip to the current step',
  'app.footer': 'Every number is computed in float32 by the C++ core in WebAssembly; the page only shows it.',

  // The article the page follows (article.js), and the series' next one.
  'article.source': 'The article: ',
  'article.name':
    'part 3 of the series 《Transformer 由浅入深》 (Transformer, from the ground up) · stage 2 「核心机制」 (the core mechanism)',
  'article.sections': '§1–§8',
  'article.short': '《Transformer 由浅入深》 part 3',
  'article.section': 'The article: {article}, §{section}',
  'article.sectionBack': 'Backpropagation (not in the article): the step of {article}, §{section}, run backwards',
  'article.next': 'Part 4: multi-head attention',
  'article.nextOffer':
    "The article ends here. The series' part 4 comes next: one set of W_Q/W_K/W_V learns only one idea of “what is related”; multi-head attention lets the model look several ways at once.",
  'article.nextOpen': 'Compute "it is cat" again with 2 heads →',
  'notice.linkWords.count':
    "This link's words field has {count} words for n = {n}: the extra words were dropped and rows without one are numbered; the rest of the link opens as it is.",
  'notice.linkWords.badWords':
    'This link\'s words field ("{text}") cannot be read: words are separated by commas, each at most {max} characters. The rows are numbered instead; the rest of the link opens as it is.',
  'notice.linkTrain':
    'This link\'s {field} field ("{text}") cannot be read and was left at its default; the rest of the link opens as it is.',
  'notice.linkArticle':
    'The link\'s article field ("{text}") is not an https: address and was ignored; the rest of the link opened as usual.',

  'embed.button': 'Embed',
  'embed.title': 'Embed this step in a blog post',
  'embed.help':
    'Paste the code below into the post\'s HTML: the frame shows this step (with the current example and options) and sizes itself to its content. It runs in a sandbox="allow-scripts" frame: it cannot read anything of the blog page, and it stores nothing in the reader\'s browser.',
  'embed.fields':
    'Every field after the # can be changed: step=1…{steps} picks the step, panel=1 adds the input panel, nav=1 the step navigation, lang=en the English interface, article=https://… links “the article” to your post.',
  'embed.needsServer':
    "Embedding needs the playground on a web site (the dist/site folder works on any static host as it is). This page was not opened from a web site, and a frame on a blog cannot load a file from the reader's computer.",
  'embed.devServer':
    'This is the development page (npm start), which a sandboxed frame cannot load: the code points at the self-contained build that this server also serves at site/ (dist/site, made by npm run build). For a blog, copy the dist/site folder to your web site and change the address in the code to it.',
  'embed.frameFailed':
    "The playground could not start in this frame: this page's scripts were not loaded. A blog frame needs the self-contained build, dist/site/index.html (npm run build), on a web site.",
  'embed.copy': 'Copy code',
  'embed.copied': 'Code copied.',
  'embed.copyFailed': 'Could not write to the clipboard: the code is selected, press Ctrl+C (⌘+C on a Mac) to copy it.',
  'embed.close': 'Close',
  'embed.open': 'Open in the playground',
  'offline.download': 'Download for offline use',
  'offline.downloadHint': 'One HTML file: put it on a USB stick and open it on a computer without a network.',
  'app.build': 'build {build}',

  'lang.switch': '中文',
  'lang.switchLabel': 'Switch the interface to Chinese',
  'theme.label': 'Colours',
  'theme.system': 'Theme: as the system',
  'theme.light': 'Theme: light',
  'theme.dark': 'Theme: dark',
  'link.copy': 'Copy link',
  'link.copied': 'Link copied. Opening it restores exactly this view.',
  'link.copyFailed': 'Could not write to the clipboard; copy the link from the address bar.',

  'nav.label': 'Steps',
  'nav.prev': 'Previous',
  'nav.next': 'Next',
  'nav.position': 'Step {step} of {total}',
  'nav.keys': 'Tip: the ← / → keys change the step.',

  'step.x.title': 'Input matrix X',
  'step.x.text':
    'A sentence has n tokens, and each token is first represented as a d-dimensional vector. Stack them and you get the input matrix X: n rows and d columns, one row per word. Think of X as a spreadsheet: each row is a word, each column a score for some attribute of it — attributes that are not named by people but worked out by the model during training as a set of numeric coordinates.',
  'step.x.qkvMode':
    'This is the "Q, K, V directly" mode: the article\'s example in §7 skips X and the projections and gives Q, K, V ready-made. To see the projections, switch to "from X through W_Q/W_K/W_V" on the right.',
  'step.project.title': 'Three projections: Q, K, V',
  'step.project.text':
    'Q, K and V are "three faces of the same word": X multiplied by three learnable weight matrices. W_Q is the "asking outfit", W_K the "answering outfit", W_V the "content outfit". The same original vector, multiplied by different weight matrices, is dressed up as three new vectors for three different uses. Each row of Q is a word\'s "question", each row of K its "label", each row of V its "content".',
  'step.scores.title': 'Scores: QKᵀ',
  'step.scores.text':
    'The simplest measure of how well two vectors match is the dot product (multiply position by position, then add): the larger it is, the more the directions agree, the more "related". Taking the dot product of every word\'s Q with every word\'s K is S = QKᵀ. Entry (i, j) of S is "word i\'s question · word j\'s label" — the raw score of how much word i attends to word j. The transpose only turns K so that the matrices can be multiplied; it changes no value.',
  'step.scale.title': 'Scaling: divide by √dₖ',
  'step.scale.text':
    'The larger dₖ is, the wider dot products swing: if each component of q and k is independent with mean 0 and variance 1, then Var(q·k) = dₖ and the standard deviation is about √dₖ. With values that large, softmax becomes extremely "sharp", putting almost all weight on the largest entry, and gradients become tiny. Dividing by √dₖ brings the variance back to 1, so softmax stays in the healthy range where it "still hears the gradient".',
  'step.max.title': "Subtract each row's max",
  'step.max.text':
    "In practice a numerical-stability step comes first: subtract each row's maximum before softmax. eˣ grows so fast that a slightly large x (say 1000) overflows to infinity; yet subtracting the same constant from every number leaves softmax's result exactly unchanged. After subtracting the row's max, the largest entry becomes e⁰ = 1 and the others are between 0 and 1 — no overflow, and an identical result.",
  'step.max.title.column': "Subtract each column's max",
  'step.max.text.column':
    "Misconception demo, along columns: the stability step now subtracts each column's maximum before softmax. It still keeps eˣ from overflowing, and subtracting one constant per column leaves this column softmax unchanged — but each column is now treated as one distribution, which is not what attention does.",
  'step.max.naive':
    'Naive softmax is selected: it skips this step and exponentiates the scaled scores directly. The row maxima are still listed below, for comparison.',
  'step.exp.title': 'Exponentiate',
  'step.exp.text':
    'The first thing softmax does: the exponential eˣ pushes high scores higher and low scores lower, so the strong get stronger while the weak do not vanish entirely — e⁰ = 1 is not 0, so every word keeps a non-zero share of attention.',
  'step.sum.title': 'Row sums',
  'step.sum.text':
    'The second thing softmax does is divide by the total. First add up each row\'s exponentials: that total is the "whole cake" the word has to share out. "Row by row" is the point: each row stands for one particular word deciding how to spend its own attention budget.',
  'step.sum.title.column': 'Column sums',
  'step.sum.text.column':
    "The column softmax adds up each column's exponentials instead: the total of everyone's attention on word j. That is no word's own budget — \"row by row\" is the point of attention; the columns are summed here to show the misconception.",
  'step.weights.title': 'Normalise: weights A',
  'step.weights.text':
    "Dividing each exponential by its row's sum turns row i into weights that add up to 1: how word i distributes its attention over all the words of the sentence. Each word's share is its slice of the cake, and the whole cake is always 100% (the Σ beside each row).",
  'step.weights.text.column':
    "Dividing each exponential by its column's sum makes every column add up to 1 (the Σ under each column). The rows — each word's own distribution of attention — no longer have to sum to 1: compare the Σ beside each row.",
  'step.output.title': 'Weighting: multiply by V',
  'step.output.text':
    'The last step uses the weight matrix A to mix all the words\' values: output_i = Σⱼ A_ij v_j. Think of it as "mixing a cocktail by the recipe": softmax has fixed the proportions, and this step pours the words\' values together in those proportions. Q and K only work out the recipe; what actually goes into the glass comes from V.',

  'stage.formula': "Formula (the current step's part is highlighted)",

  'article.weights':
    'A detail worth savouring: when scoring, each word gave itself full marks (1) and the other zero, yet after softmax the other still gets 0.33, not 0. Softmax never wipes anyone out completely — even a relevance of 0 keeps a trace of attention.',
  'article.output':
    "Read the result: the first word's new representation is [6.7, 3.3] — mostly from itself (weight 0.67), with a little of the second word mixed in. That is how attention kneads context in.",

  'mat.x': 'input: one row per word',
  'mat.wq': '"asking outfit" (learned)',
  'mat.wk': '"answering outfit" (learned)',
  'mat.wv': '"content outfit" (learned)',
  'mat.q': 'each row = a word\'s "question"',
  'mat.k': 'each row = a word\'s "label"',
  'mat.v': 'each row = a word\'s "content"',
  'mat.scores': 'raw score of word i for word j',
  'mat.scaled': 'scaled scores',
  'mat.rowMax': 'max of each row',
  'mat.colMax': 'max of each column',
  'mat.shifted': "after subtracting the max (each row's max is 0)",
  'mat.exps': 'exponentials',
  'mat.rowSum': 'sum of each row',
  'mat.colSum': 'sum of each column',
  'mat.weights': 'attention weights (each row sums to 1)',
  'mat.weightsColumn': '"weights" of a column softmax (each column sums to 1) — the misconception',
  'mat.output': 'output: one new row per word',
  'mat.rowTotal': 'Σ row',
  'mat.colTotal': 'Σ column',
  'mat.cell': '{name} row {i}, column {j}',
  'mat.heatmapOnly': '{rows}×{cols}, larger than 16, shown as a heatmap without numbers.',
  'mat.masked': 'masked',

  'legend.masked': 'Grey: masked (−∞, weight 0) or not a finite number',

  'explain.heading': 'How the weight of word {i} on word {j} comes about',
  'explain.headingWords': 'How the weight of “{i}” on “{j}” comes about',
  'explain.outputHeading': "Output of {i}, dimension {c}: the words' values mixed by the weights",
  'explain.outputTerms': "each weight A_ij times this dimension of word j's value",
  'explain.dot': 'dot product: multiply position by position',
  'explain.scale': 'scale',
  'explain.exp': 'subtract the max, exponentiate',
  'explain.expNaive': 'exponentiate directly (naive softmax, no max subtracted)',
  'explain.norm': 'divide by the row sum: the weight',
  'explain.normColumn': 'divide by the column sum (column softmax, the misconception)',

  // visual story (issue 10)
  'stage.controls': 'Switches of this step',
  'map.x': 'input',
  'map.project': 'project',
  'map.scores': 'score',
  'map.scale': 'scale',
  'map.max': '− max',
  'map.exp': 'exp',
  'map.sum': 'sum',
  'map.weights': 'weights',
  'map.output': 'mix',
  'map.noX': 'Q, K, V are given directly: there is no X',
  'mat.kTransposed': 'each row = a word\'s "label" (multiplied transposed: Kᵀ)',
  'mat.expsArticle': 'the article by hand: eˣ directly, no max subtracted',
  'article.sameWeight': 'Two ways, one weight:',
  'article.sameWhy':
    "Subtracting the same constant (the row's max) from every number of a row multiplies the numerator and the denominator by the same factor, so softmax's result is exactly unchanged. The article's exp(0.71) ≈ 2.03 and sum 3.03 and the stable softmax's 1 and 1.493 give the same 0.67.",
  'legend.seqScale': "Colour: 0 → this matrix's maximum",
  'legend.divScale': "Colour: negative ← 0 → positive, on this matrix's largest magnitude",
  'legend.side': "Side column: each row's max or sum, plain numbers without colour",
  'explain.moreTerms': '… {count} more terms',
  'explain.close': 'Close',
  'explain.rounding':
    "Each number is shown with its matrix's precision; checked term by term, the last digit may be off by one.",
  'explain.maskedScore': 'causal mask: word {j} comes after word {i}, so the mask sets the scaled score to −∞',
  'explain.maskedExp': 'e to the power −∞ is 0',
  'explain.maskedWeight': 'so the weight is exactly 0',
  'explain.expColumn': "subtract the column's max, exponentiate (column softmax, the misconception)",
  'mix.title': "Output of {word} = the words' values mixed by the weights",
  'mix.wordN': 'word {i}',
  'mix.text':
    "Softmax has fixed the recipe (how much of each word); this step pours the words' values together in those proportions. Click a word to see its row.",
  'mix.pickRow': 'Whose output to show',
  'mix.word': 'word',
  'mix.weight': 'weight (row {i} of A)',
  'mix.value': "the word's value (a row of V)",
  'mix.total': 'added up',
  'mix.more': 'Only the {shown} heaviest words are listed; the other {count} are mixed in with their own weights too.',
  'lines.caption':
    'Each line joins two words; the thicker it is, the more weight the word on the left gives the word on the right (a row of A). Click a word on the left to bring out its lines and write their weights on them; hover a line for its weight.',
  'lines.summary': 'The weights “{word}” gives the words: {weights}.',
  'engine.build.relaxed':
    'Core: relaxed-SIMD build (WebAssembly SIMD with fused multiply–add in the fast paths; the steps on the page run the same SIMD128 loops as the SIMD128 build)',
  'engine.build.simd': 'Core: SIMD128 build (WebAssembly SIMD)',
  'engine.build.scalar':
    "Core: scalar build (this browser has no WebAssembly SIMD; the SIMD path's loops run as scalar instructions)",
  'engine.path.simd': 'the numbers on the page come from the SIMD path',
  'engine.path.reference': 'the numbers on the page come from the reference (plain loops, term by term)',
  'engine.reference': 'reference',
  'engine.same': 'Compared with the SIMD path: every number is the same, bit for bit.',
  'engine.difference': 'Compared with the SIMD path, the largest difference is {value} ({name}, row {i}, column {j}).',
  'engine.why':
    "The two paths may differ in the last digit: the SIMD loops add the floats in another order (and use xsimd's own exp), so float32 rounding comes out slightly differently.",
  'editor.filled': '{names} grew: the new cells (dashed) were filled with random numbers; edit them cell by cell.',
  'list.and': ', ',
  'preset.randomScale':
    'X and Q, K, V hold numbers from −2 to 2; W holds numbers within ±√(3/d) (variance 1/d), so Q and K are as large as X and the scaled scores have an expected standard deviation of about 1.3 that does not grow with the dimension: weights that differ without turning "winner takes all" (with 64 words, each row\'s largest weight is about 0.16 on average).',

  'panel.label': 'Inputs and options',
  'panel.inputs': 'Inputs',
  'panel.options': "The article's teaching points, as controls",
  'preset.label': 'Example',
  'preset.article': "The article's example (§7)",
  'preset.cat': '"它 是 猫" ("it is cat"), 3 × 4',
  'preset.overflow': 'Scores near 1000 (overflow)',
  'preset.random': 'Random (seeded)',
  'preset.custom': 'Custom (edited)',
  'preset.illustrative': 'The values of X and W_Q, W_K, W_V are chosen by hand for illustration, not learned.',
  'mode.label': 'Input mode',
  'mode.x': 'From X through W_Q/W_K/W_V',
  'mode.qkv': 'Q, K, V directly',
  'size.n': 'n (words)',
  'size.d': 'd (input width)',
  'size.dk': 'dₖ (width of Q, K)',
  'size.dv': 'dᵥ (width of V)',
  'words.label': "The sentence's words",
  'words.hint':
    'Each word is one row of {matrix}, n = {n} of them, separated by spaces or commas; leave it empty to number the rows 1…n.',
  'size.seed': 'Random seed',
  'undo.label': 'Edit history',
  'undo.undo': 'Undo',
  'undo.redo': 'Redo',
  'undo.undoKeys': 'Undo the last edit (Ctrl+Z)',
  'undo.redoKeys': 'Redo the edit undone (Ctrl+Shift+Z or Ctrl+Y)',
  'editor.reset': 'Reset {name} to the example',
  'editor.paste': 'Paste a whole matrix',
  'editor.pasteHint':
    'NumPy style [[1, 0], [0, 1]], CSV, or one row per line separated by spaces; full-width digits and the minus sign "−" work too. A different shape resizes the example.',
  'editor.apply': 'Apply',
  'editor.large': 'More than 16 columns: too wide to type into; use "Paste a whole matrix".',

  'opt.scale': 'Scaling',
  'opt.scale.sqrt_dk': '÷ √dₖ (the article)',
  'opt.scale.dk': '÷ dₖ',
  'opt.scale.none': 'none',
  'opt.scale.faq': 'Why divide by √dₖ?',
  'opt.scale.faqText':
    'Because the variance of a dot product grows to dₖ with the dimension, and the standard deviation — the typical size of the swings — is its square root, √dₖ. What we want to cancel is the size of the swings, so dividing by √dₖ brings the variance back to exactly 1. Dividing by dₖ would squash the scores too much, flatten their differences and make attention too "even" — just as unhelpful.',
  'opt.temperature': 'Temperature τ (divides the scaled scores)',
  'opt.temperatureHint': 'τ < 1 sharpens the distribution, τ > 1 evens it out.',
  'opt.mask': 'Causal mask (each word sees only itself and earlier words)',
  'opt.softmax': 'Softmax algorithm',
  'opt.softmax.stable': "stable (subtract each row's max first)",
  'opt.softmax.naive': 'naive (exponentiate directly)',
  'opt.softmax.hint': 'Choose "Scores near 1000", then naive: e¹⁰⁰⁰ overflows to ∞, and ∞/∞ gives NaN.',
  'opt.axis': 'Softmax direction',
  'opt.axis.row': 'along rows (correct)',
  'opt.axis.column': 'along columns (a common misconception)',
  'opt.axis.faq': 'Why must softmax go along rows?',
  'opt.axis.faqText':
    'Each row stands for "how one word spends its own attention budget", and that budget must be that word\'s own 100%. Only along rows do each word\'s weights add up to 1 on their own, independent of the others. Along columns you get "everyone\'s share of attention on one word" — a different meaning entirely; over the whole table at once mixes different words\' budgets. Both are wrong.',
  'opt.digits': 'Precision',
  'opt.digits.value': '{digits} significant digits',

  'notice.updated': 'A new version of the playground has been downloaded; reload the page to use it.',
  'notice.badHash': "The state in this link could not be read; the article's default example is shown instead.",
  'notice.naive':
    'Naive softmax does not subtract the max: once scores are large (say 1000), eˣ overflows to ∞ and ∞/∞ becomes NaN — exactly what §5 of the article warns about.',
  'notice.naiveUnderflow':
    'NaN appeared: nothing overflowed — every eˣ of a row underflowed to 0 (its scores are all far below 0, such as −2000), so its weights are 0/0. Switch back to "stable": subtracting the max makes the largest term e⁰ = 1.',
  'notice.naiveOverflow':
    '∞ or NaN appeared: eˣ overflowed. Switch back to "stable" to see how subtracting the max avoids it.',
  'notice.column':
    'Misconception demo: softmax was taken along columns. Each column sums to 1 and the rows no longer do — this is "everyone\'s share of attention on one word", not each word\'s own distribution of attention.',
  'notice.columnAgrees':
    'Misconception demo: softmax was taken along columns, so each column sums to 1 (the Σ under each column). On these numbers every row happens to sum to 1 as well — as on the article\'s example, whose S is symmetric (Q = K). On most numbers they do not: try the example \"it is cat\", where Q ≠ K.',
  'notice.scale.dk':
    'Dividing by dₖ instead of √dₖ: this squashes the scores too much, flattens their differences and makes attention too "even".',
  'notice.scale.none':
    'No scaling: the larger dₖ, the wider dot products swing (variance dₖ), and the more softmax turns "winner takes all".',
  'notice.masked':
    'The causal mask is on: word i cannot see the words after it; those scores are −∞ and their weights 0.',
  'notice.temperature': 'Temperature τ = {value}: the scaled scores are also divided by τ.',
  'notice.lastGood': 'Some input is invalid; the last correct result is still shown below.',

  // reliability (issue 9)
  'notice.nonFinite':
    'From step {step} on, some numbers are ∞ or NaN although every input is finite: a number outgrew float32 (about ±3.4×10³⁸) and became ∞, and ∞ − ∞ or ∞/∞ gives NaN. Try a larger temperature τ or smaller inputs.',
  'core.detached_data': 'The data of {name} is no longer there: its buffer was transferred away (detached).',
  'err.ambiguousComma':
    '"{text}" could be one number with a decimal comma or two numbers: write {decimal} for one number, or {pair} for two.',
  'err.brackets': 'The brackets do not pair up: write a matrix as [[1, 2], [3, 4]], each "[" closed by its "]".',

  'err.empty': 'This cell is empty; enter a number.',
  'err.notNumber': '"{text}" is not a number.',
  'err.nan': 'NaN (not a number) is not accepted.',
  'err.infinite': '±∞ (infinity) is not accepted.',
  'err.tooLarge': '"{text}" is beyond float32\'s largest number, ±{max}, and would be ±∞ in the core.',
  'err.ragged': 'Row {row} has {got} numbers but row 1 has {want}: every row needs the same count.',
  'err.pasteEmpty': 'No numbers were found.',
  'err.cellIn': 'Row {row}, column {col}: {message}',
  'err.size': 'A size must be a whole number from 1 to {max}.',
  'err.wordCount':
    'Words: {count}, rows: n = {n}. Each word labels one row, so there must be n of them (or set n to {count}).',
  'err.wordLong': '“{word}” is too long: a word has at most {max} characters.',
  'err.seed': 'The seed must be a whole number from 0 to 2147483647.',
  'err.temperature': 'The temperature must be a finite number greater than 0.',
  'err.temperatureBelow':
    "τ = {value} is below float32's smallest positive number, {min}: the core would compute with τ = 0.",
  'err.temperatureAbove': "τ = {value} is beyond float32's largest number, {max}: the core would compute with τ = ∞.",
  'notice.linkLoss.missing':
    'This link has loss={loss} but not its matrix {field} ({what}): it is taken as all zeros, and the rest of the link opens as it is.',
  'notice.linkLoss.shape':
    "This link's {field} ({what}) is not {rows} × {cols}, the shape its loss needs: the cells that fit are kept, the others are 0, and the rest of the link opens as it is.",
  'notice.linkLoss.y': 'the target Y',
  'notice.linkLoss.dout': 'the given dO',
  'notice.linkTemperature': "This link's temperature cannot be used, so τ = 1 is shown instead. {message}",
  'err.kept': '{typed} is not computed. {message} Until this cell changes, the page computes with {used}.',
  'err.underflow': "{value} is below float32's smallest positive number, {min}: the core computes with 0.",
  'err.engine': 'The computing core rejected this input: {message}',

  // The core's refusals, one per Error.code (wasm/vocabulary.mjs, ERROR_CODES), worded from the
  // error's numbers by web/src/engine-errors.js; {name} is the matrix as the page names it.
  'core.wrong_length': '{name} has {got} values, but a {rows}×{cols} matrix needs {need}.',
  'core.empty_matrix': '{name} needs at least one row and one column (it is {rows}×{cols}).',
  'core.not_finite': '{name} is {value} here, which is not finite; the core accepts only finite inputs.',
  'core.dk_mismatch': 'Q has d_k = {need} columns but K has {got}; QKᵀ needs the same d_k in both.',
  'core.key_value_mismatch':
    'K has {need} rows (one key per word) but V has {got}; every key needs exactly one value row.',
  'core.projection_mismatch':
    'X is {xRows}×{xCols} but {name} is {wRows}×{wCols}; X·W needs W to have as many rows as X has columns ({xCols}).',
  'core.mask_shape': 'The mask is {rows}×{cols} but the scores are {needRows}×{needCols}.',
  'core.mask_value': 'The mask is {value} here; a mask holds only 0 (masked) and 1 (kept).',
  'core.bad_temperature': 'The temperature must be a finite number greater than 0 (it is {value}).',
  'core.too_much_memory': 'This size ({rows}×{cols}) needs {bytes} of working memory; the limit is {limit}.',
  'core.bad_option': 'The option {name} does not accept {got}.',
  'core.bad_arguments': '{function} needs one object argument (got {got}).',
  'core.unknown_option': '{function} has no option "{name}"; the options are {known}.',
  'core.missing_matrix': 'The matrix {name} is missing.',
  'core.not_a_matrix': '{name} must be a matrix { rows, cols, data } (got {got}).',
  'core.bad_dimension': '{name}.{field} must be a whole number ≥ 1 (got {got}).',
  'core.bad_data': "{name}'s data must be a Float32Array or an array of numbers (got {got}).",
  'core.not_a_number': "{name}'s value number {index} is not a number (got {got}).",
  'core.inputs_too_large': "The inputs hold {values} values ({bytes}); at most {limit} fit in the module's memory.",

  'core.gradient_shape': 'The output gradient is {rows}×{cols} but the output A·V is {needRows}×{needCols}.',
  'core.gradient_not_finite': 'The output gradient is {value} here; a gradient must be a finite number.',
  'core.disposed': 'This trainer has been disposed and cannot be used again.',
  'core.out_of_range': '{name} must be a whole number from {min} to {max} (it is {got}).',
  'core.kv_heads_indivisible':
    '{heads} query heads cannot share {kvHeads} key–value heads in groups of equal size; the number of key–value heads must divide the number of heads.',
  'core.heads_indivisible':
    '{name} has {cols} columns, which {heads} heads cannot split into blocks of equal width; give it a multiple of {heads} columns.',
  'core.head_width_mismatch':
    'W_Q has {need} columns (h·d_k) but W_K has {got}; every head needs the same d_k in Q and K.',
  'core.wo_mismatch':
    'The heads concatenated have {need} columns (h·d_v) but W_O has {got} rows; concat·W_O needs {need}.',
  'core.projection_overflow': '{name} is {value} here: X·W overflowed float32. Use smaller values in X or the weights.',
  'core.reentrant_call':
    'The computing core was called again before its call ({running}) had returned; nothing was computed.',

  // the page's views (the labs name themselves in i18n/labs/)
  'view.steps': 'The nine steps',
  'views.label': 'Views',
};
