// The sliding window panel's words, in both languages.
export default {
  'zh-CN': {
    'eff.window.title': '滑动窗口',
    'eff.window.h': '滑动窗口:每个词只看前面 w 个词(含自己)',
    'eff.window.text':
      '因果注意力里第 i 个词要和它前面所有的词比;滑动窗口只留最近的 w 个:第 i 个查询能看到第 j 个键,当且仅当 i − w < j ≤ i。分数表只剩对角线旁边的一条带子,每行至多 w 个数,总量随 n 线性增长,而不是 n²。下面的输出由 wasm 核心的窗口注意力算出,旁边是把同一条带子当作掩码的完整注意力。',
    'eff.window.w': '窗口 w',
    'eff.window.gridCaption': '缩放后的分数 sᵢⱼ,窗口 w = {w} 的带子',
    'eff.window.legend.in': '数字、粗框:窗口内',
    'eff.window.legend.out': '× 斜线:在前面但出了窗口',
    'eff.window.legend.future': '空白:在后面(因果掩码)',
    'eff.window.count': '带子里有 {window} 个分数,完整因果注意力是 {causal} 个。',
    'eff.window.outH': '窗口注意力的输出,与带同一掩码的完整注意力',
    'eff.window.windowed': '窗口注意力',
    'eff.window.banded': '完整注意力 + 带状掩码',
    'eff.window.causal': '完整因果注意力(没有窗口)',
    'eff.window.sameAsCausal': 'w = {w} ≥ n:窗口盖住了前面所有的词,结果就是完整的因果注意力。',
    'eff.window.fromCausal': '和没有窗口的因果注意力相比:{agree}',
    'eff.window.announce': '窗口 w = {w}:{agree}',
  },
  en: {
    'eff.window.title': 'The sliding window',
    'eff.window.h': 'A sliding window: each word looks only at the last w words (itself included)',
    'eff.window.text':
      'In causal attention word i is compared with every word before it; a sliding window keeps only the last w: query i sees key j if and only if i − w < j ≤ i. The score table shrinks to a band along its diagonal, at most w numbers a row, so it grows with n, not n². The output below is the wasm core’s windowed attention, beside the full attention with the same band as its mask.',
    'eff.window.w': 'Window w',
    'eff.window.gridCaption': 'The scaled scores sᵢⱼ, the band of a window w = {w}',
    'eff.window.legend.in': 'numbers, thick frame: in the window',
    'eff.window.legend.out': '× hatched: earlier, but out of the window',
    'eff.window.legend.future': 'blank: later (the causal mask)',
    'eff.window.count': 'The band holds {window} scores; the full causal attention {causal}.',
    'eff.window.outH': 'The windowed output, beside the full attention with the same mask',
    'eff.window.windowed': 'Windowed attention',
    'eff.window.banded': 'Full attention + band mask',
    'eff.window.causal': 'Full causal attention (no window)',
    'eff.window.sameAsCausal':
      'w = {w} ≥ n: the window covers every earlier word, and the result is the full causal attention.',
    'eff.window.fromCausal': 'Against the causal attention without a window: {agree}',
    'eff.window.announce': 'Window w = {w}: {agree}',
  },
};
