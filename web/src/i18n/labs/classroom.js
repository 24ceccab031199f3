// The words of the classroom mode (a projector: the stage only, or a lab's charts, in large type), in
// both languages side by side: the header's button, the bar at the foot of the screen, what is said
// on the way.
export default {
  'zh-CN': {
    'classroom.button': '课堂模式',
    'classroom.buttonHint': '投影用:只显示当前步骤,大字号,可全屏;用 →/← 或翻页笔翻页,可按设定的秒数自动翻页',
    'classroom.bar': '课堂模式',
    'classroom.pace': '自动翻页(秒)',
    'classroom.paceHint': '留空:不自动翻页',
    'classroom.pacePlaceholder': '留空:不翻页',
    'classroom.paceError': '请填写 1–{max} 之间的整数秒数,或者留空,不自动翻页。',
    'classroom.play': '播放',
    'classroom.pause': '暂停',
    'classroom.countdown': '{s} 秒后下一步',
    'classroom.paused': '已暂停(P 继续)',
    'classroom.ended': '已到最后一步,自动翻页停止。',
    'classroom.noPace': '先在"自动翻页(秒)"里填写秒数。',
    'classroom.fullscreen': '全屏',
    'classroom.leaveFullscreen': '退出全屏',
    'classroom.fullscreenRefused':
      '浏览器没有允许全屏(嵌入的页面、本地文件或浏览器设置都可能禁止);课堂模式照常可用,也可以试试浏览器自己的全屏(F11)。',
    'classroom.copy': '复制课堂链接',
    'classroom.copied': '课堂链接已复制:打开它就进入课堂模式{pace}。',
    'classroom.copiedPace': ',每 {s} 秒自动翻页(按 P 开始)',
    'classroom.leave': '退出(Esc)',
    'classroom.keys':
      '→、空格、PageDown:下一步 · ←、PageUp:上一步 · Home / End:第一步 / 最后一步 · P:自动翻页 / 暂停 · F:全屏 · B:黑屏 · Esc:退出',
    'classroom.labButtonHint': '投影用:只显示这个实验的图表和关键数字,大字号,可全屏;用 PageDown 或翻页笔往下翻',
    'classroom.labKeys': 'PageDown、空格:往下翻一屏 · PageUp:往上翻 · F:全屏 · B:黑屏 · Esc:退出',
    'classroom.labMore': '下面还有:按 PageDown 或滚动查看。',
    'classroom.left': '已退出课堂模式。',
    'classroom.blank': '黑屏中:按 B 或任意翻页键回到这一步。',
    'classroom.scrolls': '这一步在这块屏幕上放不下:字已缩小,其余部分可以滚动查看。',
  },
  en: {
    'classroom.button': 'Classroom',
    'classroom.buttonHint':
      'For a projector: the current step only, in large type, full screen; → / ← or a clicker, and auto-advance at a pace you set',
    'classroom.bar': 'Classroom mode',
    'classroom.pace': 'Auto-advance (s)',
    'classroom.paceHint': 'Empty: no auto-advance',
    'classroom.pacePlaceholder': 'empty: off',
    'classroom.paceError': 'Enter a whole number of seconds from 1 to {max}, or leave it empty for no auto-advance.',
    'classroom.play': 'Play',
    'classroom.pause': 'Pause',
    'classroom.countdown': 'Next step in {s} s',
    'classroom.paused': 'Paused (P resumes)',
    'classroom.ended': 'Last step: auto-advance stopped.',
    'classroom.noPace': 'First enter the seconds in "Auto-advance (s)".',
    'classroom.fullscreen': 'Full screen',
    'classroom.leaveFullscreen': 'Leave full screen',
    'classroom.fullscreenRefused':
      "The browser refused full screen (an embedded page, a local file or a browser setting can forbid it). The classroom mode works as it is; the browser's own full screen (F11) may still work.",
    'classroom.copy': 'Copy classroom link',
    'classroom.copied': 'Classroom link copied: it opens in classroom mode{pace}.',
    'classroom.copiedPace': ', advancing every {s} s (press P to start)',
    'classroom.leave': 'Leave (Esc)',
    'classroom.keys':
      '→, Space, PageDown: next · ←, PageUp: previous · Home / End: first / last step · P: auto-advance / pause · F: full screen · B: blank · Esc: leave',
    'classroom.labButtonHint':
      "For a projector: this lab's charts and key numbers only, in large type, full screen; PageDown or a clicker scrolls down",
    'classroom.labKeys': 'PageDown, Space: down a screen · PageUp: back up · F: full screen · B: blank · Esc: leave',
    'classroom.labMore': 'More below: press PageDown or scroll.',
    'classroom.left': 'Left classroom mode.',
    'classroom.blank': 'Screen blanked: press B or any page key to show the step again.',
    'classroom.scrolls': 'This step does not fit this screen: the type is smaller, and the rest scrolls.',
  },
};
