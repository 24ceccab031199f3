// The cost lab's log–log charts (cost-lab-view.js): time against n, and memory against n, drawn by
// the labs' log–log chart (labs/loglog-chart.js) in the cost lab's look (cost-lab.css).

import { logLogCharts } from '../../labs/loglog-chart.js';

export { decades } from '../../labs/loglog-chart.js';

/** How each line looks besides its colour (cost-lab.css), so that the paths differ without colour too. */
const MARKS = { reference: 'square', simd: 'circle', streaming: 'triangle', scores: 'dot' };

export const { chartFigure, legendItem } = logLogCharts({ prefix: 'cost', marks: MARKS });
