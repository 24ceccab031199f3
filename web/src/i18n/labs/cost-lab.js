// The words of the lab "the cost of n²" (view=cost-lab), in both languages.
export default {
  'zh-CN': {
    'view.cost-lab': 'n² 的代价',
  },
  en: {
    'view.cost-lab': 'The cost of n²',
  },
};
