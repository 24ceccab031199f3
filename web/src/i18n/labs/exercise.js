// The words of the exercise view (view=exercise) and of its printed handout, in both languages.
export default {
  'zh-CN': {
    'view.exercise': '动手算一算',
  },
  en: {
    'view.exercise': 'Compute by hand',
  },
};
