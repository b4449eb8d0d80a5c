import * as vega from 'vega';
import { compile } from 'vega-lite';
import type { ChartSpec } from './chart.js';

export interface RenderedChart {
  svg: string;
  /** Vega-Lite and Vega warnings (an honest chart has none; tests assert that). */
  warnings: string[];
}

/** A logger that records instead of printing: the report must not write to the console. */
class CollectingLogger {
  private current = 0;
  constructor(private readonly warnings: string[]) {}
  level(): number;
  level(value: number): this;
  level(value?: number): number | this {
    if (value === undefined) return this.current;
    this.current = value;
    return this;
  }
  error(...args: readonly unknown[]): this {
    this.warnings.push(`error: ${args.map(String).join(' ')}`);
    return this;
  }
  warn(...args: readonly unknown[]): this {
    this.warnings.push(args.map(String).join(' '));
    return this;
  }
  info(): this {
    return this;
  }
  debug(): this {
    return this;
  }
}

/**
 * Vega numbers gradient and clip ids from process-wide counters, so the same chart rendered twice gets
 * different ids, and two inline SVGs in one page could collide. Renumber them per chart, in order of
 * first appearance, under the chart's id.
 */
export function scopeSvgIds(svg: string, chartId: string): string {
  const names = new Map<string, string>();
  const scoped = (name: string) => {
    let value = names.get(name);
    if (value === undefined) {
      value = `${chartId}-${names.size + 1}`;
      names.set(name, value);
    }
    return value;
  };
  return svg
    .replace(/ id="([A-Za-z_][\w-]*)"/g, (_, name: string) => ` id="${scoped(name)}"`)
    .replace(/url\(#([A-Za-z_][\w-]*)\)/g, (_, name: string) => `url(#${scoped(name)})`);
}

/** Compiles a chart's Vega-Lite spec and renders it to a static SVG string, offline. */
export async function renderChartSvg(chart: ChartSpec): Promise<RenderedChart> {
  const warnings: string[] = [];
  const logger = new CollectingLogger(warnings);
  let view: vega.View | undefined;
  try {
    const { spec } = compile(chart.spec, { logger });
    view = new vega.View(vega.parse(spec), { renderer: 'none', logger, logLevel: vega.Warn });
    const svg = await view.toSVG();
    return { svg: scopeSvgIds(svg, chart.id), warnings };
  } catch (error) {
    throw new Error(`chart '${chart.id}' could not be rendered: ${(error as Error).message}`);
  } finally {
    view?.finalize();
  }
}
