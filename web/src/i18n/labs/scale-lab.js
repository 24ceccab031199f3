// The words of the lab "why divide by √d_k" (view=scale-lab), in both languages.
export default {
  'zh-CN': {
    'view.scale-lab': '为什么除以 √dₖ',
  },
  en: {
    'view.scale-lab': 'Why divide by √dₖ',
  },
};
