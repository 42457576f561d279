// SPDX-License-Identifier: BSD-3-Clause
// The HTML report's charts (docs/report.md#html-report). pico inlines this
// script after the data (<script id="pico-data">): it decodes the tables once
// and builds one Vega-Lite spec per chart, each referencing those rows.
(function () {
  'use strict';

  const errorBox = document.getElementById('pico-errors');
  function recordError(where, message) {
    const item = document.createElement('li');
    item.textContent = where + ': ' + message;
    errorBox.querySelector('ul').appendChild(item);
    errorBox.hidden = false;
  }
  window.addEventListener('error', (e) => recordError('page', e.message));

  const data = JSON.parse(document.getElementById('pico-data').textContent);

  const main = document.getElementById('pico-report');
  const nav = document.getElementById('pico-nav');
  const charts = [];

  // Colours distinct within a panel: Vega's tableau10, tableau20 past ten lines, and past twenty
  // hues spread round the circle (no named scheme has more, and a repeated colour names two lines).
  const TABLEAU10 = ['#4c78a8', '#f58518', '#e45756', '#72b7b2', '#54a24b', '#eeca3b', '#b279a2', '#ff9da6', '#9d755d', '#bab0ac'];
  const TABLEAU20 = ['#4c78a8', '#9ecae9', '#f58518', '#ffbf79', '#54a24b', '#88d27a', '#b79a20', '#f2cf5b', '#439894', '#83bcb6',
    '#e45756', '#ff9d98', '#79706e', '#bab0ac', '#d67195', '#fcbfd2', '#b279a2', '#d6a5c9', '#9e765f', '#d8b5a5'];

  // An application run's report (reports/html/application.js draws it) shares the page's parts: the
  // sections, the charts and how they are drawn and checked.
  if (data.kind === 'application') {
    window.picoApplicationPage({ data, main, section, chart, logAxis });
    drawCharts();
    return;
  }

  // Rows of arrays to objects; string columns hold indices into data.strings.
  function decode(table) {
    const isString = new Set(table.strings);
    return table.rows.map((row) => {
      const o = {};
      table.columns.forEach((column, i) => {
        const v = row[i];
        o[column] = isString.has(column) && v !== null ? data.strings[v] : v;
      });
      return o;
    });
  }

  const cases = decode(data.tables.cases);
  const best = decode(data.tables.best);
  const several = data.reports.length > 1;
  for (const c of cases) {
    c.median_us = c.median_s === null ? null : c.median_s * 1e6;
    c.ci_low_us = c.ci95_low_s === null ? null : c.ci95_low_s * 1e6;
    c.ci_high_us = c.ci95_high_s === null ? null : c.ci95_high_s * 1e6;
    c.in_place = c.in_place ? 'in-place' : 'out-of-place';
  }
  for (const b of best) b.in_place = b.in_place ? 'in-place' : 'out-of-place';
  const phases = decode(data.tables.phases).map((p) => Object.assign({}, cases[p.case], { phase: p.phase, time_us: p.time_s * 1e6 }));
  const compression = decode(data.tables.compression).map((m) => Object.assign({}, cases[m.case], m));
  for (const m of compression) cases[m.case].rel_l2_error = m.rel_l2_error;
  // Each later case against report 1's same case, with the speedup pico computed (core/speedup.hpp).
  const compared = decode(data.tables.compared).map((m) => Object.assign({}, cases[m.case], m));
  const SPEEDUP_DEFINITION = data.speedup_definition;  // pico's own words for the figure, said beside it
  const overlap = decode(data.tables.overlap).map((o) => Object.assign({}, cases[o.case], o,
    { pure_comm_us: o.pure_comm_s * 1e6, overall_us: o.overall_s * 1e6, compute_us: o.compute_s * 1e6 }));

  // What else than the algorithm tells two lines of one collective apart:
  // only the fields that take several values there, so labels stay short.
  const VARIANT_FIELDS = ['report', 'dtype', 'op', 'in_place', 'mode'];
  function varying(rows, fields) {
    return fields.filter((f) => new Set(rows.map((r) => r[f])).size > 1);
  }
  // Charts with a panel per report (facetByNp) leave the report out of a line's name.
  const PANEL_VARIANT_FIELDS = VARIANT_FIELDS.filter((f) => f !== 'report');
  function labelRows(rows, fields) {
    for (const r of rows) {
      r.variant = fields.map((f) => r[f]).join(' ');
      r.series = r.algorithm + (r.variant ? ' · ' + r.variant : '');
    }
  }
  // A point every line of a panel can be measured at: all but the algorithm.
  const sizeKey = (r) => [r.report, r.collective, r.dtype, r.op, r.in_place, r.mode, r.np, r.bytes].join('|');
  // Each row's line within its panel: the algorithm and what else varies there, the report
  // left out (it is the panel), so one algorithm keeps its colour in every report's panel.
  function lineRows(rows) {
    const fields = varying(rows, PANEL_VARIANT_FIELDS);
    for (const r of rows) r.line = r.algorithm + (fields.length ? ' · ' + fields.map((f) => r[f]).join(' ') : '');
  }

  function palette(n) {
    if (n <= 10) return TABLEAU10;
    if (n <= 20) return TABLEAU20;
    return Array.from({ length: n }, (_, i) => 'hsl(' + Math.round((i * 360) / n) + ', 70%, ' + (i % 2 ? 32 : 52) + '%)');
  }

  const seriesColour = (rows) => ({ field: 'series', type: 'nominal', title: 'algorithm', scale: { range: palette(new Set(rows.map((r) => r.series)).size) } });

  // An algorithm's family: its label without the parameters ("mpi/chain[segment_size=8192]" is a mpi/chain).
  const familyOf = (label) => label.replace(/\[[^\]]*\]/, '');

  // Each line's cost (r.cost): the geometric mean, over the points it was measured at, of its median
  // over the fastest median there (1: fastest everywhere). value(r) is the time compared.
  // Rows grouped by key(row), in the order the keys first appear.
  function groupRows(rows, key) {
    const groups = new Map();
    for (const r of rows) {
      if (!groups.has(key(r))) groups.set(key(r), []);
      groups.get(key(r)).push(r);
    }
    return groups.values();
  }

  function lineCosts(rows, value) {
    const fastest = new Map();
    for (const r of rows) {
      const k = sizeKey(r);
      if (!fastest.has(k) || value(r) < fastest.get(k)) fastest.set(k, value(r));
    }
    const logs = new Map();
    for (const r of rows) {
      const l = logs.get(r.line) || { sum: 0, n: 0 };
      l.sum += Math.log(value(r) / fastest.get(sizeKey(r)));
      l.n += 1;
      logs.set(r.line, l);
    }
    const cost = new Map([...logs].map(([line, l]) => [line, Math.exp(l.sum / l.n)]));
    for (const r of rows) r.cost = cost.get(r.line);
    return { fastest, cost };
  }

  // Lines a panel can tell apart. Past ten lines, where some algorithms come in several variants
  // (parameters), a chart draws the best variant of each algorithm (least cost), and a menu under it
  // shows all variants of one algorithm instead: each view has few enough lines for distinct colours.
  // Returns what a spec adds (params, transform) and the colour range; rows get family, family_best.
  function variantViews(rows, value) {
    const families = new Map();
    for (const r of rows) {
      r.family = familyOf(r.line);
      if (!families.has(r.family)) families.set(r.family, new Set());
      families.get(r.family).add(r.line);
    }
    const lines = new Set(rows.map((r) => r.line));
    const grouped = [...families].filter(([, members]) => members.size > 1).sort((a, b) => a[0].localeCompare(b[0]));
    if (lines.size <= 10 || grouped.length === 0) return { colours: palette(lines.size), views: 1 };
    // The best variant per panel (report, process count): one measured only in some panels must
    // not take its algorithm out of the others.
    const panelOf = (r) => r.report + '|' + r.np;
    const bestOf = new Map();
    for (const panelRows of groupRows(rows, panelOf)) {
      const { cost } = lineCosts(panelRows, value);
      for (const r of panelRows) {
        const k = panelOf(r) + '|' + r.family, seen = bestOf.get(k);
        if (seen === undefined || cost.get(r.line) < cost.get(seen)) bestOf.set(k, r.line);
      }
    }
    for (const r of rows) r.family_best = bestOf.get(panelOf(r) + '|' + r.family) === r.line;
    const bestLines = new Set(rows.filter((r) => r.family_best).map((r) => r.line));
    const options = ['best'].concat(grouped.map(([family]) => family));
    const labels = ['the best variant of each of ' + families.size + ' algorithms']
      .concat(grouped.map(([family, members]) => 'every variant of ' + family + ' (' + members.size + ')'));
    return {
      params: [{ name: 'lines', value: 'best', bind: { input: 'select', options, labels, name: 'lines drawn: ' } }],
      transform: [{ filter: "lines === 'best' ? datum.family_best : datum.family === lines" }],
      colours: palette(Math.max(bestLines.size, ...grouped.map(([, members]) => members.size))),
      views: options.length,
    };
  }
  const VARIANT_VIEWS_HOW = ' Where algorithms come in many variants (parameters), each algorithm\'s best variant is drawn (the least geometric mean of its time over the fastest); the menu under the chart draws one algorithm\'s variants instead.';

  // The reference (default) median of each size, for bars normalised to it.
  const referenceMedian = new Map();
  for (const b of best) if (b.reference_median_s !== null) referenceMedian.set(sizeKey(b), b.reference_median_s);
  for (const b of best) {
    b.ratio = b.reference_median_s === null ? null : b.reference_median_s / b.best_median_s;
    // As the summary and the heatmap print it; '?' where the size's measurement cannot support it (b.noise says why).
    b.ratio_text = b.ratio === null ? '' : b.ratio.toFixed(2) + 'x' + (b.noise ? '?' : '');
    b.best_us = b.best_median_s * 1e6;
    // A winner whose answer is mostly error (html_data.cpp, core/compression_bound.hpp) is named with its mark
    // wherever it is named (summary, heatmap), never a plain winner; the legend under the summary says why.
    if (b.beyond_error_bound) b.best += ' ' + data.error_bound.mark;
    b.reference_us = b.reference_median_s === null ? null : b.reference_median_s * 1e6;
  }


  function section(id, title) {
    const h = document.createElement('h2');
    h.id = id;
    h.textContent = title;
    main.appendChild(h);
    const a = document.createElement('a');
    a.href = '#' + id;
    a.textContent = title;
    nav.appendChild(a);
  }

  // Channels left undefined (no facet for one process count) are removed:
  // Vega-Lite reads a present key as a channel. Data rows are not walked.
  function dropUndefined(o) {
    for (const k of Object.keys(o)) {
      if (o[k] === undefined) delete o[k];
      else if (k !== 'data' && o[k] !== null && typeof o[k] === 'object') dropUndefined(o[k]);
    }
  }

  // A chart: its title, a line on how to read it, and the spec drawn below.
  function chart(kind, title, how, spec) {
    const h = document.createElement('h3');
    h.textContent = title;
    const p = document.createElement('p');
    p.className = 'how';
    p.textContent = how;
    const div = document.createElement('div');
    div.className = 'pico-chart';
    div.dataset.kind = kind;
    div.dataset.title = title;
    main.append(h, p, div);
    dropUndefined(spec);
    spec.$schema = 'https://vega.github.io/schema/vega-lite/v5.json';
    spec.config = Object.assign({ axis: { labelFontSize: 11, labelLimit: 400 }, legend: { labelLimit: 400, symbolLimit: 0 }, range: { category: TABLEAU10 } }, spec.config || {});
    charts.push({ div, spec, title });
  }

  // The size axis of rows (logarithmic): a tick at each measured size and only there, labelled as pico
  // writes sizes (1KiB, 4MiB: the rows' size text, core/size_text.hpp), the domain a third of an octave
  // beyond the smallest and the largest so that no point or interval sits on the frame.
  function sizeAxis(rows) {
    const sizes = [...new Map(rows.map((r) => [r.bytes, r.size])).entries()].sort((a, b) => a[0] - b[0]);
    const labelExpr = sizes.reduceRight((rest, [bytes, text]) => 'datum.value === ' + bytes + ' ? ' + JSON.stringify(text) + ' : ' + rest, "''");
    const margin = Math.pow(2, 1 / 3);
    return { field: 'bytes', type: 'quantitative', title: 'size (bytes per rank block)',
      scale: { type: 'log', base: 2, domain: [sizes[0][0] / margin, sizes[sizes.length - 1][0] * margin], nice: false },
      axis: { values: sizes.map(([bytes]) => bytes), labelExpr, labelOverlap: 'greedy', labelSeparation: 4 } };
  }
  const sizeOrdinal = { field: 'size', type: 'ordinal', sort: { field: 'bytes', op: 'min' }, title: 'size' };
  // A log axis fitted to the data (a little margin, not rounded out to whole decades) with its
  // ticks at the decades inside it, else at 1-2-5 steps, else (a ratio axis spanning less than
  // a factor of ten) at finer steps, so that more than one value is labelled where the data spans
  // enough for it.
  function logAxis(rows, fields, title) {
    const values = rows.flatMap((r) => fields.map((f) => r[f])).filter((v) => v !== null && v > 0);
    const lo = Math.min(...values) / 1.25, hi = Math.max(...values) * 1.25;
    const within = (mantissas) => {
      const ticks = [];
      for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); ++e)
        for (const m of mantissas) {
          const v = m * Math.pow(10, e);
          if (v >= lo && v <= hi) ticks.push(v);
        }
      return ticks;
    };
    const decades = within([1]), steps = within([1, 2, 5]);
    const ticks = decades.length >= 2 ? decades : steps.length >= 3 ? steps : within([1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8]);
    return { scale: { type: 'log', domain: [lo, hi], nice: false }, axis: { values: ticks, format: '~r', labelOverlap: 'greedy' }, title };
  }

  // An interval drawn within its axis: the axis spans the centres (medians, speedups) and their
  // intervals up to `reach` times beyond them; an end past that is drawn at the axis' end
  // (FIELD_drawn) and marked there by a triangle (FIELD_clamped), its true value in the tooltip.
  // Returns what logAxis needs to span: the centres and the drawn ends.
  function clampIntervals(rows, centre, low, high, reach) {
    const centres = rows.map((r) => r[centre]).filter((v) => v !== null && v > 0);
    const lowest = Math.min(...centres) / reach, highest = Math.max(...centres) * reach;
    const clamp = (v) => Math.min(Math.max(v, lowest), highest);
    for (const r of rows) {
      const bounded = r[low] !== null && r[high] !== null && r[centre] !== null;
      r[low + '_drawn'] = bounded ? clamp(r[low]) : null;
      r[high + '_drawn'] = bounded ? clamp(r[high]) : null;
      r[low + '_clamped'] = bounded && r[low] < lowest;
      r[high + '_clamped'] = bounded && r[high] > highest;
    }
    return [centre, low + '_drawn', high + '_drawn'];
  }

  // The layers of clamped intervals (clampIntervals): the bar between the drawn ends, and a triangle at
  // each end the axis cut, pointing the way the interval goes on. y: the axis (logAxis) the centres use.
  function intervalLayers(x, y, low, high, color, tooltip) {
    const at = (field) => Object.assign({ field, type: 'quantitative' }, y);
    const end = (field, shape) => ({ name: 'pico_clamped_' + (shape === 'triangle-up' ? 'high' : 'low'), transform: [{ filter: 'datum.' + field + '_clamped' }],
      // Its apex at the cut end, its body over the bar: inside the frame however wide the axis.
      mark: { type: 'point', shape, filled: true, size: 70, opacity: 1, yOffset: shape === 'triangle-up' ? 4 : -4 }, encoding: { x, y: at(field + '_drawn'), color, tooltip } });
    return [
      { name: 'pico_interval', transform: [{ filter: 'datum.' + low + '_drawn !== null' }], mark: { type: 'rule' },
        encoding: { x, y: at(low + '_drawn'), y2: { field: high + '_drawn' }, color, tooltip } },
      end(high, 'triangle-up'),
      end(low, 'triangle-down'),
    ];
  }
  const CLAMPED_HOW = ' An interval reaching past three times the extreme values is cut at the axis and marked there by a triangle; hover it for its whole.';

  // A symlog axis for errors (0 is exact, drawn at the bottom): a tick at 0 and at each decade
  // from the smallest error to the largest, so that nothing between 0 and 0.1 goes unlabelled.
  function errorAxis(rows, field, title) {
    const positive = rows.map((r) => r[field]).filter((v) => v !== null && v > 0);
    const values = [0];
    if (positive.length > 0)
      for (let e = Math.floor(Math.log10(Math.min(...positive))); e <= Math.ceil(Math.log10(Math.max(...positive))); ++e) values.push(Math.pow(10, e));
    return { field, type: 'quantitative', scale: { type: 'symlog', constant: 1e-6 }, title,
      axis: { values, labelExpr: "datum.value === 0 ? '0' : format(datum.value, '.0e')", labelOverlap: 'greedy' } };
  }

  // Several process counts: one panel each, side by side; several reports:
  // one row of panels each, never overlaid on one another. top: what the
  // chart adds at its top level (a menu's params, the transform it drives).
  function facetByNp(rows, spec, top) {
    spec = Object.assign({ width: 420, height: 280 }, spec);
    const nps = new Set(rows.map((r) => r.np)).size > 1;
    const reports = new Set(rows.map((r) => r.report)).size > 1;
    let out;
    if (!nps && !reports) out = Object.assign({ data: { values: rows } }, spec);
    else if (!reports) out = { data: { values: rows }, facet: { field: 'np', type: 'ordinal', title: 'processes' }, columns: 3, spec };
    else {
      const facet = { row: { field: 'report', type: 'nominal', title: null, header: { labelAngle: 0, labelAlign: 'left', labelOrient: 'top' } } };
      if (nps) facet.column = { field: 'np', type: 'ordinal', title: 'processes' };
      out = { data: { values: rows }, facet, spec };
    }
    return Object.assign(out, top || {});
  }

  // A table's number in fixed notation to `digits` significant digits (20250, 1.560, 0.00321), never
  // in exponent notation (2.025e+4), which a reader scanning a column misreads.
  function readable(v, digits) {
    if (v === 0 || !Number.isFinite(v)) return String(v);
    const decimals = Math.max(0, digits - 1 - Math.floor(Math.log10(Math.abs(v))));
    return v.toFixed(Math.min(decimals, 100));
  }

  // Every line by name and number: per panel (report, process count) one row per line (each variant,
  // its full name), one column per size, each cell the line's median over the fastest median there
  // (1.00, bold: the fastest); rows from the least geometric mean of those ratios, shown last.
  function overFastestTables(collective, rows) {
    if (new Set(rows.map((r) => r.line)).size < 2) return;
    const h = document.createElement('h3');
    h.textContent = collective + ': time over the fastest, per algorithm and size';
    const how = document.createElement('p');
    how.className = 'how';
    how.textContent = 'Each cell: the median time of the row\'s algorithm at that size over the fastest median there (1.00, bold: the fastest; shading grows with the ratio); hover a cell for the median and its 95% confidence interval. Rows are ordered by the geometric mean of their ratios; – : not measured at that size. Compressed algorithms show their largest relative L2 error.';
    main.append(h, how);
    const reportOrder = new Map(data.reports.map((r, i) => [r.label, i]));
    const ordered = [...groupRows(rows, (r) => r.report + '|' + r.np)].sort((a, b) => reportOrder.get(a[0].report) - reportOrder.get(b[0].report) || a[0].np - b[0].np);
    for (const panelRows of ordered) {
      const { fastest, cost } = lineCosts(panelRows, (r) => r.median_s);
      const sizes = [...new Map(panelRows.map((r) => [r.bytes, r.size])).entries()].sort((a, b) => a[0] - b[0]);
      const wrap = document.createElement('div');
      wrap.className = 'pico-table';
      const table = document.createElement('table');
      table.className = 'over-fastest';
      table.dataset.collective = collective;
      table.dataset.np = panelRows[0].np;
      table.dataset.report = panelRows[0].report;
      const caption = table.createCaption();
      caption.textContent = (several ? panelRows[0].report + ', ' : '') + panelRows[0].np + ' processes';
      const head = table.createTHead().insertRow();
      // A compressed algorithm is never ranked without its error: the largest over its sizes.
      const errors = new Map();
      for (const r of panelRows)
        if (r.rel_l2_error !== undefined && r.rel_l2_error !== null) errors.set(r.line, Math.max(errors.get(r.line) || 0, r.rel_l2_error));
      for (const text of ['algorithm'].concat(sizes.map(([, size]) => size), ['geo. mean'], errors.size > 0 ? ['rel L2 error (largest)'] : [])) {
        const th = document.createElement('th');
        th.textContent = text;
        head.appendChild(th);
      }
      const body = table.createTBody();
      const byLine = new Map();
      for (const r of panelRows) {
        if (!byLine.has(r.line)) byLine.set(r.line, new Map());
        byLine.get(r.line).set(r.bytes, r);
      }
      for (const line of [...byLine.keys()].sort((a, b) => cost.get(a) - cost.get(b) || a.localeCompare(b))) {
        const tr = body.insertRow();
        tr.dataset.line = line;
        const name = tr.insertCell();
        name.textContent = line;
        name.className = 'name';
        for (const [bytes] of sizes) {
          const td = tr.insertCell();
          td.className = 'num';
          const r = byLine.get(line).get(bytes);
          if (!r) {
            td.textContent = '–';
            continue;
          }
          const ratio = r.median_s / fastest.get(sizeKey(r));
          td.dataset.bytes = bytes;
          td.dataset.ratio = ratio;
          td.textContent = ratio.toFixed(2);
          td.title = readable(r.median_us, 4) + ' µs' + (r.ci_low_us === null ? '' : ' (95% CI ' + readable(r.ci_low_us, 4) + '–' + readable(r.ci_high_us, 4) + ' µs)');
          if (ratio === 1) td.classList.add('fastest');
          else td.style.background = 'rgba(230, 85, 13, ' + Math.min(0.6, Math.log(ratio) / Math.log(4) * 0.6).toFixed(3) + ')';
        }
        const mean = tr.insertCell();
        mean.className = 'num mean';
        mean.textContent = cost.get(line).toFixed(2);
        if (errors.size > 0) {
          const error = tr.insertCell();
          error.className = 'num';
          error.textContent = errors.has(line) ? readable(errors.get(line), 3) : '-';
        }
      }
      wrap.appendChild(table);
      main.appendChild(wrap);
    }
  }

  const collectives = [...new Set(cases.map((c) => c.collective))];
  const us = (s) => (s === null || s === undefined ? '-' : readable(s * 1e6, 4));

  // The answer first: per collective, process count and size, the fastest
  // algorithm, the default, how much the default loses and what the library
  // said it ran; a compressed winner with its error. Numbers as the report's.
  // What makes a report's numbers doubtful (ranks outnumbering cores), above everything it qualifies.
  for (const r of data.reports) {
    for (const w of r.warnings || []) {
      const p = document.createElement('p');
      p.className = 'warning';
      p.textContent = (several ? r.label + ': ' : '') + 'warning: ' + w;
      main.appendChild(p);
    }
  }

  // The speedup pico computed (core/speedup.hpp, the figure `pico compare` prints, to its digits):
  // baseline time / this time, its 95% interval and verdict; the page computes none of its own.
  const speedupText = (r) => r.speedup_text + ' ' + r.verdict;
  const verdictClass = (r) => (r.verdict === 'faster' ? 'faster' : r.verdict === 'slower' ? 'loses' : '');
  const baselineLabel = data.reports[0].label;
  const fastestText = (b) => b.best + (b.best_rel_l2_error === null ? '' : ' (rel L2 ' + readable(b.best_rel_l2_error, 3) + ')');

  section('summary', 'summary');
  {
    const p = document.createElement('p');
    p.className = 'how';
    p.textContent = several
      ? 'Per size, the reports side by side, report 1 (' + baselineLabel + ') the baseline: each report\'s fastest algorithm by median time and its median, the default\'s time over the fastest there (1.00: the default is the fastest), and for each later report the speedup of its fastest over the baseline\'s fastest (' + SPEEDUP_DEFINITION + '; green: faster, orange: slower). A compressed winner shows its relative L2 error.'
      : 'Per size: the fastest algorithm by median time, the default (the library\'s own collective where the run measured it, else the dense allreduce compressed ones ran beside), the default\'s time over the fastest (1.00: the default is the fastest) and, where the library said, the algorithm its default ran. A compressed winner shows its relative L2 error: fast is no answer without it.';
    const table = document.createElement('table');
    table.className = 'summary';
    table.id = 'pico-summary';
    const number = (i) => String(i + 1);
    const head = several
      ? ['collective', 'variant', 'np', 'size'].concat(...data.reports.map((r, i) => i === 0
        ? ['1: fastest', '1: fastest (µs)', '1: default / fastest']
        : [number(i) + ': fastest', number(i) + ': fastest (µs)', number(i) + ': speedup over 1\'s fastest', number(i) + ': default / fastest']))
      : ['collective', 'variant', 'np', 'size', 'fastest', 'fastest (µs)', 'default', 'default (µs)', 'default / fastest', 'default ran', 'error (rel L2)'];
    const tr = table.createTHead().insertRow();
    for (const h of head) {
      const th = document.createElement('th');
      th.textContent = h;
      tr.appendChild(th);
    }
    const body = table.createTBody();
    const addRow = (first, cells) => {
      const row = body.insertRow();
      row.dataset.collective = first.collective;
      row.dataset.np = first.np;
      row.dataset.bytes = first.bytes;
      for (const [text, className] of cells) {
        const td = row.insertCell();
        td.textContent = String(text);
        if (className) td.className = className;
      }
      return row;
    };
    // A noisy size's loss is not shown as one, nor a loss to a winner whose answer is mostly error.
    const loses = (b) => (b.ratio !== null && b.ratio >= 1.05 && !b.noise && !b.beyond_error_bound ? 'loses' : '');
    for (const collective of collectives) {
      const rows = best.filter((b) => b.collective === collective);
      const fields = varying(rows, ['dtype', 'op', 'in_place', 'mode']);
      const variantOf = (b) => fields.map((f) => b[f]).join(' ');
      if (!several) {
        for (const b of rows) {
          const row = addRow(b, [[b.collective], [variantOf(b)], [b.np], [b.size], [b.best, 'name'], [us(b.best_median_s)],
            [b.reference === null ? '-' : b.reference, 'name'], [us(b.reference_median_s)], [b.ratio === null ? '-' : b.ratio_text, loses(b)],
            [b.reference_ran === null ? '-' : b.reference_ran, 'name'], [b.best_rel_l2_error === null ? '-' : readable(b.best_rel_l2_error, 3)]]);
          row.dataset.bestS = b.best_median_s;
          if (b.reference_median_s !== null) row.dataset.referenceS = b.reference_median_s;
          if (b.noise) row.title = 'measured too noisily to support a verdict: ' + b.noise;
        }
        continue;
      }
      // One row per point, the reports' answers beside each other.
      const points = new Map();
      const pointOf = (b) => [b.dtype, b.op, b.in_place, b.mode, b.np, b.bytes].join('|');
      for (const b of rows) {
        if (!points.has(pointOf(b))) points.set(pointOf(b), new Map());
        points.get(pointOf(b)).set(b.report, b);
      }
      for (const byReport of points.values()) {
        const first = byReport.values().next().value;
        const base = byReport.get(baselineLabel);
        const cells = [[first.collective], [variantOf(first)], [first.np], [first.size]];
        data.reports.forEach((r, i) => {
          const b = byReport.get(r.label);
          if (!b) {
            cells.push(...(i === 0 ? [['-'], ['-'], ['-']] : [['-'], ['-'], ['-'], ['-']]));
            return;
          }
          cells.push([fastestText(b), 'name'], [us(b.best_median_s)]);
          if (i > 0) cells.push(b.speedup === null ? ['-'] : [speedupText(b), b.beyond_error_bound ? '' : verdictClass(b)]);
          cells.push([b.ratio === null ? '-' : b.ratio_text, loses(b)]);
        });
        const row = addRow(first, cells);
        if (base) {
          row.dataset.bestS = base.best_median_s;
          if (base.reference_median_s !== null) row.dataset.referenceS = base.reference_median_s;
        }
      }
    }
    main.append(p, table);
    if (best.some((b) => b.beyond_error_bound)) {
      const legend = document.createElement('p');
      legend.className = 'how';
      legend.id = 'pico-error-bound';
      legend.textContent = data.error_bound.legend;
      main.appendChild(legend);
    }
  }

  // Reports compared case by case, before the charts of each: per collective, a later report's
  // case over the same case of the baseline, with its interval, one panel per process count.
  if (several) {
    section('compared', 'reports compared');
    const p = document.createElement('p');
    p.className = 'how';
    p.textContent = 'Baseline: report 1 (' + baselineLabel + ').';
    main.appendChild(p);
    // The pairs pico made (html_data.cpp: the same case_id, both measured and validated: a wrong answer's time is no candidate).
    let drawn = 0;
    for (const collective of collectives) {
      const pairs = compared.filter((c) => c.collective === collective);
      if (pairs.length === 0) continue;
      ++drawn;
      labelRows(pairs, varying(pairs, VARIANT_FIELDS));
      lineRows(pairs);
      const views = variantViews(pairs, (c) => c.median_s);
      const color = { field: 'line', type: 'nominal', title: 'algorithm', scale: { range: views.colours } };
      // The axis spans the ratios, 1 (the dashed line) and their intervals up to three times beyond
      // them: a far wider interval (a noisy case) is cut at the axis and marked there.
      const spanned = clampIntervals(pairs, 'speedup', 'speedup_low', 'speedup_high', 3);
      const axis = logAxis(pairs.concat([{ speedup: 1 }]), spanned, 'speedup (baseline time / this time)');
      const x = sizeAxis(pairs);
      const tooltip = [{ field: 'series' }, { field: 'report' }, { field: 'size' }, { field: 'np' }, { field: 'speedup', title: 'speedup', format: '.3f' }, { field: 'speedup_low', title: 'interval low', format: '.3f' }, { field: 'speedup_high', title: 'interval high', format: '.3f' }, { field: 'verdict' }, { field: 'interval', title: 'interval from' }];
      const nps = new Set(pairs.map((c) => c.np)).size;
      const candidates = new Set(pairs.map((c) => c.report)).size;
      const facet = {};
      if (nps > 1) facet.column = { field: 'np', type: 'ordinal', title: 'processes' };
      if (candidates > 1) facet.row = { field: 'report', type: 'nominal', title: null, header: { labelAngle: 0, labelAlign: 'left', labelOrient: 'top' } };
      const spec = {
        width: Math.max(260, Math.min(700, Math.floor(880 / nps))),
        height: 260,
        layer: [
          { mark: { type: 'rule', strokeDash: [4, 3], color: '#888' }, encoding: { y: { datum: 1, type: 'quantitative' } } },
          ...intervalLayers(x, axis, 'speedup_low', 'speedup_high', color, tooltip),
          { mark: { type: 'line' }, encoding: { x, y: Object.assign({ field: 'speedup', type: 'quantitative' }, axis), color } },
          { mark: { type: 'point', size: 50, filled: true, opacity: 1 }, encoding: { x, y: Object.assign({ field: 'speedup', type: 'quantitative' }, axis), color, tooltip } },
        ],
      };
      const title = collective + ': ' + (candidates > 1 ? 'later reports' : data.reports.find((r) => r.label !== baselineLabel && pairs[0].report === r.label).label) + ' over the baseline';
      chart('reports', title, 'Each measured case against the same case (algorithm, datatype, op, processes, size) of report 1, the baseline: its speedup, above 1 (the dashed line) faster there (' + SPEEDUP_DEFINITION + '). The vertical bar is that interval; one across 1 is undecided, a difference the data cannot show. Logarithmic axes.' + CLAMPED_HOW + (views.views > 1 ? VARIANT_VIEWS_HOW : ''),
        Object.keys(facet).length > 0 ? { data: { values: pairs }, facet, spec, params: views.params, transform: views.transform }
          : Object.assign({ data: { values: pairs }, params: views.params, transform: views.transform }, spec));
    }
    if (drawn === 0) {
      const none = document.createElement('p');
      none.textContent = 'No case of a later report matches one of report 1 (' + baselineLabel + ').';
      main.appendChild(none);
    }
  }

  for (const collective of collectives) {
    const all = cases.filter((c) => c.collective === collective);
    labelRows(all, varying(all, VARIANT_FIELDS));
    // Drawn and ranked: the cases that ran and validated (a wrong answer's time is no candidate; the
    // summary, C++'s best_per_size, leaves it out too). The grid of what ran shows the others.
    const measured = all.filter((c) => c.median_us !== null && c.status === 'ok');
    const id = 'collective-' + collective;
    section(id, collective);
    // One algorithm (one line, one bar) compares nothing: its times are in the summary.
    const single = new Set(measured.map((c) => c.series)).size <= 1;

    const statusChart = () => chart('status', collective + ': what ran', 'Every planned case, one tile per algorithm and size: ok (validated or not validated), validation failed, failed, skipped. Hover a tile for its reason.', {
      data: { values: all },
      mark: { type: 'rect', stroke: 'white' },
      encoding: {
        x: sizeOrdinal,
        y: { field: 'series', type: 'nominal', title: null },
        row: new Set(all.map((r) => r.np)).size > 1 ? { field: 'np', type: 'ordinal', title: 'processes' } : undefined,
        color: { field: 'status', type: 'nominal', scale: { domain: ['ok', 'validation failed', 'failed', 'skipped'], range: ['#59a14f', '#e15759', '#9c1c1c', '#bab0ac'] } },
        tooltip: [{ field: 'series' }, { field: 'size' }, { field: 'np' }, { field: 'status' }, { field: 'reason' }],
      },
    });
    // The grid of what ran is drawn last, and only where something did not run cleanly.
    const allOk = all.every((c) => c.status === 'ok');

    if (measured.length === 0 || single) {
      if (!allOk) statusChart();
      if (single && measured.length > 0) {
        const p = document.createElement('p');
        p.className = 'how';
        p.textContent = 'One algorithm measured (' + measured[0].series + '): no chart compares anything; its times are in the summary.';
        main.appendChild(p);
      }
      continue;
    }
    lineRows(measured);
    const views = variantViews(measured, (c) => c.median_s);
    // One legend: colour alone (a shape per line made a second, equal list).
    const series = { field: 'line', type: 'nominal', title: 'algorithm', scale: { range: views.colours } };
    const top = { params: views.params, transform: views.transform };
    const viewsHow = views.views > 1 ? VARIANT_VIEWS_HOW : '';
    const timeAxis = logAxis(measured, clampIntervals(measured, 'median_us', 'ci_low_us', 'ci_high_us', 3), 'median time (µs)');
    const x = sizeAxis(measured);
    const timeTooltip = [{ field: 'series' }, { field: 'size' }, { field: 'np' }, { field: 'median_us', title: 'median (µs)', format: '.4~r' }, { field: 'ci_low_us', title: 'CI low (µs)', format: '.4~r' }, { field: 'ci_high_us', title: 'CI high (µs)', format: '.4~r' }];
    chart('time', collective + ': time vs size', 'Median time per call (the slowest rank of each iteration) against size, one line per algorithm, both axes logarithmic; the vertical bar at each point is the 95% confidence interval of the median. Lower is better.' + CLAMPED_HOW + viewsHow + (views.views > 1 ? ' The table below names every variant in full.' : ''),
      facetByNp(measured, {
        layer: [
          ...intervalLayers(x, timeAxis, 'ci_low_us', 'ci_high_us', series, timeTooltip),
          { mark: { type: 'line' }, encoding: { x, y: Object.assign({ field: 'median_us', type: 'quantitative' }, timeAxis), color: series } },
          { mark: { type: 'point', size: 50, filled: true, opacity: 1 }, encoding: { x, y: Object.assign({ field: 'median_us', type: 'quantitative' }, timeAxis), color: series, tooltip: timeTooltip } },
        ],
      }, top));
    overFastestTables(collective, measured);

    if (measured.some((c) => c.busbw_GBps > 0)) {
      chart('busbw', collective + ': bus bandwidth vs size', 'Bus bandwidth (GB/s, 10^9 bytes) from the median time, the collective\'s algbw times its bus factor: comparable across process counts; higher is better. Size axis logarithmic.' + viewsHow,
        facetByNp(measured, {
          encoding: { x, y: { field: 'busbw_GBps', type: 'quantitative', title: 'bus bandwidth (GB/s)' } },
          layer: [
            { mark: { type: 'line' }, encoding: { color: series } },
            { mark: { type: 'point', size: 50, filled: true, opacity: 1 }, encoding: { color: series,
              tooltip: [{ field: 'series' }, { field: 'size' }, { field: 'np' }, { field: 'busbw_GBps', title: 'busbw (GB/s)', format: '.4~r' }] } },
          ],
        }, top));
    }

    const bestRows = best.filter((b) => b.collective === collective);
    if (bestRows.length > 0) {
      labelRows(bestRows, varying(bestRows, VARIANT_FIELDS));
      // Cells wide enough for the winner's name: a truncated name would not say who won.
      const longest = Math.max(...bestRows.map((b) => b.best.length));
      const sizeCount = new Set(bestRows.map((b) => b.bytes)).size;
      // Within the page (1,200 px of cells at most); a name longer than its cell is cut with an ellipsis, and in full in the summary.
      const step = Math.max(48, Math.min(Math.max(60, 6.5 * longest + 12), 320, Math.floor(1200 / sizeCount)));
      const worst = Math.max(2, ...bestRows.filter((b) => b.ratio !== null).map((b) => b.ratio));
      // White on the darker half of the scale, black on the paler: never black on dark red.
      const cellText = { condition: { test: 'datum.ratio !== null && datum.ratio > ' + (1 + (worst - 1) / 2), value: 'white' }, value: '#111' };
      const heat = {
        width: { step },
        height: { step: 40 },  // room for the two lines of each cell
        layer: [
          // Cells are at least 48 px wide: the size reads level under each.
          { mark: 'rect', encoding: { x: Object.assign({ axis: { labelAngle: 0 } }, sizeOrdinal), y: { field: 'np', type: 'ordinal', title: 'processes', sort: 'descending' },
            color: { field: 'ratio', type: 'quantitative', title: 'default / best', scale: { scheme: 'oranges', domain: [1, worst] }, legend: { orient: 'bottom', direction: 'horizontal', gradientLength: 240 } },
            tooltip: [{ field: 'size' }, { field: 'np' }, { field: 'best', title: 'best' }, { field: 'best_us', title: 'best (µs)', format: '.4~r' }, { field: 'reference', title: 'default' }, { field: 'reference_us', title: 'default (µs)', format: '.4~r' }, { field: 'ratio', title: 'default / best', format: '.3f' }] } },
          { mark: { type: 'text', fontSize: 10, dy: -6, limit: step - 4 }, encoding: { x: sizeOrdinal, y: { field: 'np', type: 'ordinal', sort: 'descending' }, text: { field: 'best' }, color: cellText } },
          { mark: { type: 'text', fontSize: 11, fontWeight: 'bold', dy: 7 }, encoding: { x: sizeOrdinal, y: { field: 'np', type: 'ordinal', sort: 'descending' }, text: { field: 'ratio_text' }, color: cellText } },
        ],
      };
      const variants = new Set(bestRows.map((b) => b.variant));
      // Faceted, each row's own y title would print over the next one's: the row header says it once.
      if (variants.size > 1) for (const layer of heat.layer) layer.encoding.y.title = null;
      chart('heatmap', collective + ': default vs best', 'Each cell is one (process count, size): the fastest algorithm, and below it the default\'s median time over the fastest\'s (1.00x, palest: the default is the fastest; 2.00x: the default takes twice as long). Cells without a number have no default case to compare.',
        variants.size > 1 ? { data: { values: bestRows }, facet: { row: { field: 'variant', type: 'nominal', title: 'processes, per ' + varying(bestRows, VARIANT_FIELDS).join(', '), header: { labelAngle: 0, labelAlign: 'left', labelOrient: 'top' } } }, spec: heat } : Object.assign({ data: { values: bestRows } }, heat));

      const normalised = measured.filter((c) => referenceMedian.has(sizeKey(c)));
      for (const c of normalised) c.vs_default = c.median_s / referenceMedian.get(sizeKey(c));
      const sizes = [...new Map(normalised.map((c) => [c.bytes, c.size])).entries()].sort((a, b) => a[0] - b[0]);
      if (sizes.length > 0) {
        chart('normalised', collective + ': algorithms against the default at one size', 'Median time of each algorithm divided by the default\'s at the size chosen below (largest first): bars left of 1 are faster than the default, right of 1 slower.', {
          data: { values: normalised },
          params: [{ name: 'chosen_size', value: sizes[sizes.length - 1][0], bind: { input: 'select', options: sizes.map((s) => s[0]), labels: sizes.map((s) => s[1]), name: 'size ' } }],
          transform: [{ filter: 'datum.bytes == chosen_size' }],
          mark: 'bar',
          encoding: {
            y: { field: 'series', type: 'nominal', title: null, sort: 'x' },
            x: { field: 'vs_default', type: 'quantitative', title: 'time / default\'s time' },
            row: new Set(normalised.map((r) => r.np)).size > 1 ? { field: 'np', type: 'ordinal', title: 'processes' } : undefined,
            color: { condition: { test: 'datum.vs_default < 1', value: '#59a14f' }, value: '#e15759' },
            tooltip: [{ field: 'series' }, { field: 'size' }, { field: 'np' }, { field: 'vs_default', title: 'time / default', format: '.3f' }, { field: 'median_us', title: 'median (µs)', format: '.4~r' }],
          },
        });
      }
    }

    if (!allOk) statusChart();

    const phaseRows = phases.filter((p) => p.collective === collective);
    if (phaseRows.length > 0) {
      labelRows(phaseRows, varying(phaseRows, VARIANT_FIELDS.concat(['np'])).map((f) => f));
      const phaseSizes = new Set(phaseRows.map((p) => p.bytes)).size;
      chart('phases', collective + ': phase breakdown', 'Where the time of one call goes, per instrumented algorithm and size: each bar stacks its phases (the median over the instrumented calls, the slowest rank). Compressed algorithms split into compress, communicate and decompress.' + (phaseSizes > 1 ? ' Each size has its own time axis: sizes apart by orders of magnitude would leave the small ones\' bars invisible on one.' : ''), {
        data: { values: phaseRows },
        width: 420,
        mark: 'bar',
        resolve: phaseSizes > 1 ? { scale: { x: 'independent' } } : undefined,
        encoding: {
          // Bars across, one row of them per size: algorithm names stay horizontal and whole.
          row: sizeOrdinal,
          y: { field: 'series', type: 'nominal', title: null, axis: { labelLimit: 400 } },
          x: { field: 'time_us', type: 'quantitative', aggregate: 'sum', title: 'time (µs)' },
          color: { field: 'phase', type: 'nominal' },
          tooltip: [{ field: 'series' }, { field: 'size' }, { field: 'phase' }, { field: 'time_us', aggregate: 'sum', title: 'time (µs)', format: '.4~r' }],
        },
      });
    }

    const overlapRows = overlap.filter((o) => o.collective === collective);
    if (overlapRows.length > 0) {
      labelRows(overlapRows, varying(overlapRows, PANEL_VARIANT_FIELDS));
      chart('overlap', collective + ': overlap of the non-blocking call with computation', 'OSU 7.4\'s overlap: computation as long as the pure communication time put between start and wait; overlap = max(0, 100 − (overall − compute) / pure comm × 100). 100% means the computation hid the whole communication, 0% that none of it progressed meanwhile.',
        facetByNp(overlapRows, {
          mark: { type: 'line', point: true },
          encoding: { x: sizeAxis(overlapRows), y: { field: 'overlap_percent', type: 'quantitative', scale: { domain: [0, 100] }, title: 'overlap (%)' }, color: seriesColour(overlapRows),
            tooltip: [{ field: 'series' }, { field: 'size' }, { field: 'overlap_percent', title: 'overlap (%)', format: '.1f' }, { field: 'pure_comm_us', title: 'pure comm (µs)', format: '.4~r' }, { field: 'overall_us', title: 'overall (µs)', format: '.4~r' }, { field: 'compute_us', title: 'compute (µs)', format: '.4~r' }] },
        }));
    }

    const errorRows = compression.filter((m) => m.collective === collective && m.rel_l2_error !== null);
    if (errorRows.length > 0) {
      labelRows(errorRows, varying(errorRows, PANEL_VARIANT_FIELDS));
      chart('compression', collective + ': compression error vs size', 'Relative L2 error of the compressed result against the exact one, per algorithm (dense is exact: 0, drawn at the bottom); hover for bits per element on the wire.',
        facetByNp(errorRows, {
          mark: { type: 'line', point: true },
          encoding: { x: sizeAxis(errorRows), y: errorAxis(errorRows, 'rel_l2_error', 'relative L2 error'), color: seriesColour(errorRows),
            tooltip: [{ field: 'series' }, { field: 'size' }, { field: 'rel_l2_error', format: '.3e' }, { field: 'bits_per_element', format: '.3~g' }] },
        }));

      // Speed against accuracy: each compressed case's speedup over the library's own collective at
      // its size (else over the dense allreduce), against its error. A "fastest" means nothing alone.
      const baselineOf = new Map();
      for (const c of measured) {
        const kind = c.backend + ':' + c.algorithm.replace(/^[^/]*\//, '');
        const rank = kind === 'mpi:default' || kind === 'nccl:default' ? 2 : kind.endsWith(':dense') ? 1 : 0;
        const seen = baselineOf.get(sizeKey(c));
        if (rank > 0 && (!seen || rank > seen.rank)) baselineOf.set(sizeKey(c), { rank, median_s: c.median_s, label: c.algorithm });
      }
      const tradeoff = errorRows.filter((m) => m.median_s !== null && baselineOf.has(sizeKey(m)))
        .map((m) => Object.assign({}, m, { speedup: baselineOf.get(sizeKey(m)).median_s / m.median_s, baseline: baselineOf.get(sizeKey(m)).label }));
      if (tradeoff.length > 0) {
        const against = [...new Set(tradeoff.map((t) => t.baseline))].join(', ');
        chart('tradeoff', collective + ': speedup against error', 'Each compressed case: its speedup over ' + against + ' at its size (above 1: faster) against its relative L2 error (0: exact). Up and left is better; a fast algorithm far right gives a wrong answer quickly.',
          facetByNp(tradeoff, {
            mark: { type: 'point', filled: true, size: 70 },
            encoding: { x: errorAxis(tradeoff, 'rel_l2_error', 'relative L2 error'),
              y: { field: 'speedup', type: 'quantitative', scale: { type: 'log' }, title: 'speedup over ' + against },
              color: seriesColour(tradeoff), shape: { field: 'size', type: 'nominal', title: 'size', sort: { field: 'bytes' } },
              tooltip: [{ field: 'series' }, { field: 'size' }, { field: 'speedup', format: '.3f' }, { field: 'baseline' }, { field: 'rel_l2_error', format: '.3e' }] },
          }));
      }
    }
  }

  // The run's stragglers (reports/html_stragglers.cpp): each host or rank once,
  // and a ranks x iterations heat map of the cases one was named in, where the
  // report kept every rank's samples.
  const withStragglers = data.reports.filter((r) => r.stragglers);
  if (withStragglers.length > 0) {
    section('stragglers', 'stragglers');
    for (const r of withStragglers) {
      const s = r.stragglers;
      if (data.reports.length > 1) {
        const h = document.createElement('h3');
        h.textContent = r.label;
        main.appendChild(h);
      }
      const text = document.createElement('pre');
      text.className = 'output-tail stragglers-text';
      text.textContent = s.text;
      main.appendChild(text);
      if (s.named.length > 0) {
        const table = document.createElement('table');
        table.className = 'summary stragglers';
        const head = table.createTHead().insertRow();
        for (const t of ['straggler', 'how', 'cases', 'share of their calls', '95% interval', 'median lateness']) {
          const th = document.createElement('th');
          th.textContent = t;
          head.appendChild(th);
        }
        const body = table.createTBody();
        for (const n of s.named) {
          const tr = body.insertRow();
          const pct = (v) => (v * 100).toFixed(0) + '%';
          const cells = [n.who, n.kinds.map((k) => k.replace('_', ' ')).join(', '), String(n.cases), pct(n.share),
            '[' + pct(n.share_low) + ', ' + pct(n.share_high) + ']', readable(n.excess_s * 1e6, 3) + ' µs'];
          for (const c of cells) tr.insertCell().textContent = c;
        }
        main.appendChild(table);
      }
      if (s.cases_without_samples > 0) {
        const p = document.createElement('p');
        p.className = 'how';
        p.textContent = s.cases_without_samples + ' case(s) with a straggler have no heat map: the run kept no per-rank samples (timing.keep_samples: true keeps them).';
        main.appendChild(p);
      }
      if (s.cases_left_out > 0) {
        const p = document.createElement('p');
        p.className = 'how';
        p.textContent = s.cases_left_out + ' more case(s) with a straggler are left out of the heat maps, to keep the page small.';
        main.appendChild(p);
      }
      for (const heat of s.heat) {
        const rows = [];
        heat.labels.forEach((label, i) => heat.late_us[i].forEach((v, b) => rows.push({ rank: label, iteration: b * heat.bin, late_us: v })));
        const what = heat.kind === 'late_arrival' ? 'entered' : 'left';
        const binned = heat.bin > 1 ? ' Iterations in bins of ' + heat.bin + ' (each cell the bin\'s median), ' + heat.samples + ' in all.' : '';
        const shown = heat.ranks_shown < heat.ranks ? ' The ' + heat.ranks_shown + ' of ' + heat.ranks + ' ranks latest at the median.' : '';
        chart('stragglers-heat', heat.case + ': lateness per rank and iteration', 'Each cell: how long after the first rank this rank ' + what + ' the call (µs), one row per rank, one column per timed iteration; a straggler is a dark row.' + binned + shown, {
          data: { values: rows },
          width: { step: Math.max(3, Math.min(12, Math.floor(900 / Math.max(1, heat.late_us[0].length)))) },
          height: { step: Math.max(8, Math.min(20, Math.floor(400 / heat.labels.length))) },
          mark: 'rect',
          encoding: {
            x: { field: 'iteration', type: 'ordinal', title: 'iteration', axis: { labelOverlap: 'greedy', labelAngle: 0 } },
            y: { field: 'rank', type: 'ordinal', title: null, sort: heat.labels },
            color: { field: 'late_us', type: 'quantitative', title: (heat.kind === 'late_arrival' ? 'entered' : 'left') + ' after the first (µs)', scale: { scheme: 'reds' } },
            tooltip: [{ field: 'rank' }, { field: 'iteration' }, { field: 'late_us', title: 'late (µs)', format: '.4~r' }],
          },
        });
      }
    }
  }

  section('provenance', 'provenance');
  for (const r of data.reports) {
    const h = document.createElement('h3');
    h.textContent = r.label;
    const counts = document.createElement('p');
    counts.className = 'counts';
    counts.textContent = r.cases + ' cases: ' + Object.entries(r.counts).map(([k, v]) => v + ' ' + k).join(', ');
    const table = document.createElement('table');
    table.className = 'provenance';
    for (const [name, value] of r.provenance) {
      const tr = table.insertRow();
      const th = document.createElement('th');
      th.textContent = name;
      tr.appendChild(th);
      const cell = tr.insertCell();
      const lines = value.split('\n');
      if (lines.length <= 3) {
        cell.textContent = value;
        continue;
      }
      // Long values (rank 0's environment: ~60 lines) fold, so that two reports' provenance stays a page.
      const details = document.createElement('details');
      const summary = document.createElement('summary');
      summary.textContent = lines.length + ' lines: ' + lines[0] + ', ...';
      const pre = document.createElement('pre');
      pre.textContent = value;
      details.append(summary, pre);
      cell.appendChild(details);
    }
    main.append(h, counts, table);
  }

  drawCharts();

  // One chart after the other: a failing spec is reported and the rest still draw.
  async function drawCharts() {
    for (const c of charts) {
      try {
        c.view = (await vegaEmbed(c.div, c.spec, { renderer: 'svg', actions: { export: true, source: false, compiled: false, editor: false } })).view;
        c.div.dataset.rendered = 'true';
      } catch (e) {
        c.div.dataset.rendered = 'false';
        recordError(c.title, e.message || String(e));
      }
    }
    document.body.dataset.picoCharts = String(charts.length);
    // What a reader would see as broken, measured where it is drawn (the tests read these):
    // the page wider than the window, and axis labels drawn over each other.
    document.body.dataset.picoPageWidth = String(document.documentElement.scrollWidth);
    document.body.dataset.picoWindowWidth = String(window.innerWidth);
    document.body.dataset.picoWide = [...document.querySelectorAll('#pico-report > *')]
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth)
      .map((e) => (e.dataset.title || e.tagName) + ' ' + Math.round(e.getBoundingClientRect().right) + ' px').join('; ');
    let overlaps = 0;
    const examples = [];
    for (const group of document.querySelectorAll('.pico-chart g.role-axis-label')) {
      const shown = [...group.querySelectorAll('text')].filter((t) => t.getAttribute('opacity') !== '0' && t.textContent !== '');
      const boxes = shown.map((t) => t.getBoundingClientRect());
      const texts = shown.map((t) => t.textContent);
      for (let i = 0; i < boxes.length; ++i)
        for (let j = i + 1; j < boxes.length; ++j) {
          const a = boxes[i], b = boxes[j];
          if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) {
            if (++overlaps <= 5) examples.push(group.closest('.pico-chart').dataset.title + ': ' + texts[i] + ' / ' + texts[j]);
          }
        }
    }
    // Interval marks (intervalLayers) against the frame of the plot they are drawn in, and how many
    // ends the axis cut (their triangles).
    let outside = 0;
    const outsideExamples = [];
    const intervalMarks = document.querySelectorAll('.pico-chart g.pico_interval_marks > *, .pico-chart g.pico_clamped_high_marks > *, .pico-chart g.pico_clamped_low_marks > *');
    for (const mark of intervalMarks) {
      // The plot (a facet's cell) it is drawn in: the nearest group item with a background.
      let cell = mark.parentElement;
      while (!cell.querySelector(':scope > path.background')) cell = cell.parentElement;
      const frame = cell.querySelector(':scope > path.background');
      const m = mark.getBoundingClientRect(), f = frame.getBoundingClientRect();
      if (m.top < f.top - 0.5 || m.bottom > f.bottom + 0.5 || m.left < f.left - 0.5 || m.right > f.right + 0.5) {
        if (++outside <= 5) outsideExamples.push(mark.closest('.pico-chart').dataset.title + ': ' + mark.getAttribute('aria-label'));
      }
    }
    document.body.dataset.picoIntervalMarks = String(intervalMarks.length);
    document.body.dataset.picoIntervalsOutside = String(outside);
    document.body.dataset.picoIntervalsOutsideExamples = outsideExamples.join('; ');
    document.body.dataset.picoClampedEnds = String(document.querySelectorAll('.pico-chart g.pico_clamped_high_marks > *, .pico-chart g.pico_clamped_low_marks > *').length);
    document.body.dataset.picoLabelOverlaps = String(overlaps);
    document.body.dataset.picoLabelOverlapExamples = examples.join('; ');
    // Two lines of one panel in one colour, in any view a chart's menu offers (the colour scale maps
    // each name shown to a colour; fewer colours than names is a repeat); legends cut short ("…4 entries").
    let repeated = 0;
    const repeatedExamples = [];
    for (const c of charts) {
      if (!c.view) continue;
      const menu = (c.spec.params || []).find((p) => p.name === 'lines');
      for (const option of menu ? menu.bind.options : [null]) {
        if (option !== null) await c.view.signal('lines', option).runAsync();
        let colour;
        try {
          colour = c.view.scale('color');
        } catch (e) {
          colour = undefined;
        }
        if (!colour || !colour.domain) continue;
        const domain = colour.domain();
        if (new Set(domain.map((d) => String(colour(d)))).size < domain.length) {
          ++repeated;
          repeatedExamples.push(c.title + (option === null ? '' : ' (' + option + ')'));
        }
      }
      if (menu) await c.view.signal('lines', menu.value).runAsync();
    }
    document.body.dataset.picoRepeatedColours = String(repeated);
    document.body.dataset.picoRepeatedColourExamples = repeatedExamples.join('; ');
    const cut = [...document.querySelectorAll('.pico-chart g.role-legend-label text')].filter((t) => /entries/.test(t.textContent));
    document.body.dataset.picoTruncatedLegends = String(cut.length);
    document.body.dataset.picoDone = 'true';
  }
})();
