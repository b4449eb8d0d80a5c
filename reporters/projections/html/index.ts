export type { AbsentChart, ChartSpec } from './chart.js';
export {
  type HtmlReport,
  type HtmlReportOptions,
  planCharts,
  renderHtmlReport,
  writeHtmlReport,
  writeRenderedHtmlReport,
} from './render.js';
export { countSvgMarks } from './svg-marks.js';
