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
  const overlap = decode(data.tables.overlap).map((o) => Object.assign({}, cases[o.case], o,
    { pure_comm_us: o.pure_comm_s * 1e6, overall_us: o.overall_s * 1e6, compute_us: o.compute_s * 1e6 }));

  // What else than the algorithm tells two lines of one collective apart:
  // only the fields that take several values there, so labels stay short.
  const VARIANT_FIELDS = ['report', 'dtype', 'op', 'in_place', 'mode'];
  function varying(rows, fields) {
    return fields.filter((f) => new Set(rows.map((r) => r[f])).size > 1);
  }
  function labelRows(rows, fields) {
    for (const r of rows) {
      r.variant = fields.map((f) => r[f]).join(' ');
      r.series = r.algorithm + (r.variant ? ' · ' + r.variant : '');
    }
  }
  const sizeKey = (r) => [r.report, r.collective, r.dtype, r.op, r.in_place, r.mode, r.np, r.bytes].join('|');

  // The reference (default) median of each size, for bars normalised to it.
  const referenceMedian = new Map();
  for (const b of best) if (b.reference_median_s !== null) referenceMedian.set(sizeKey(b), b.reference_median_s);
  for (const b of best) {
    b.ratio = b.reference_median_s === null ? null : b.reference_median_s / b.best_median_s;
    b.ratio_text = b.ratio === null ? '' : b.ratio.toFixed(2) + 'x';  // as the summary and the heatmap print it
    b.best_us = b.best_median_s * 1e6;
    b.reference_us = b.reference_median_s === null ? null : b.reference_median_s * 1e6;
  }

  const main = document.getElementById('pico-report');
  const nav = document.getElementById('pico-nav');
  const charts = [];

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
    spec.config = Object.assign({ axis: { labelFontSize: 11, labelLimit: 400 }, legend: { labelLimit: 400 }, range: { category: { scheme: 'tableau10' } } }, spec.config || {});
    charts.push({ div, spec, title });
  }

  const sizeAxis = { field: 'bytes', type: 'quantitative', scale: { type: 'log', base: 2 }, title: 'size (bytes per rank block)',
    axis: { labelOverlap: 'greedy', labelSeparation: 4, labelExpr: "datum.value >= 1073741824 ? datum.value / 1073741824 + 'GiB' : datum.value >= 1048576 ? datum.value / 1048576 + 'MiB' : datum.value >= 1024 ? datum.value / 1024 + 'KiB' : datum.value + 'B'" } };
  const sizeOrdinal = { field: 'size', type: 'ordinal', sort: { field: 'bytes', op: 'min' }, title: 'size' };
  // A log time axis fitted to the data (a little margin, not rounded out to
  // whole decades) with its ticks at the decades inside it, or at 1-2-5 steps
  // where it spans less than two decades.
  function logAxis(rows, fields, title) {
    const values = rows.flatMap((r) => fields.map((f) => r[f])).filter((v) => v !== null && v > 0);
    const lo = Math.min(...values) / 1.25, hi = Math.max(...values) * 1.25;
    const ticks = [];
    for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); ++e)
      for (const m of [1, 2, 5]) {
        const v = m * Math.pow(10, e);
        if (v >= lo && v <= hi) ticks.push(v);
      }
    const decades = ticks.filter((v) => Math.abs(Math.log10(v) - Math.round(Math.log10(v))) < 1e-9);
    return { scale: { type: 'log', domain: [lo, hi] }, axis: { values: decades.length >= 2 ? decades : ticks, format: '~g', labelOverlap: 'greedy' }, title };
  }

  // Several process counts: one panel each, side by side; several reports:
  // one row of panels each, never overlaid on one another.
  function facetByNp(rows, spec) {
    spec = Object.assign({ width: 420, height: 280 }, spec);
    const nps = new Set(rows.map((r) => r.np)).size > 1;
    const reports = new Set(rows.map((r) => r.report)).size > 1;
    if (!nps && !reports) return Object.assign({ data: { values: rows } }, spec);
    if (!reports) return { data: { values: rows }, facet: { field: 'np', type: 'ordinal', title: 'processes' }, columns: 3, spec };
    const facet = { row: { field: 'report', type: 'nominal', title: null, header: { labelAngle: 0, labelAlign: 'left', labelOrient: 'top' } } };
    if (nps) facet.column = { field: 'np', type: 'ordinal', title: 'processes' };
    return { data: { values: rows }, facet, spec };
  }

  const collectives = [...new Set(cases.map((c) => c.collective))];
  const us = (s) => (s === null || s === undefined ? '-' : (s * 1e6).toPrecision(4));

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

  section('summary', 'summary');
  {
    const p = document.createElement('p');
    p.className = 'how';
    p.textContent = 'Per size: the fastest algorithm by median time, the default (the library\'s own collective where the run measured it, else the dense allreduce compressed ones ran beside), the default\'s time over the fastest (1.00: the default is the fastest) and, where the library said, the algorithm its default ran. A compressed winner shows its relative L2 error: fast is no answer without it.';
    const table = document.createElement('table');
    table.className = 'summary';
    table.id = 'pico-summary';
    const showReport = several;
    const head = (showReport ? ['report'] : []).concat(['collective', 'variant', 'np', 'size', 'fastest', 'fastest (µs)', 'default', 'default (µs)', 'default / fastest', 'default ran', 'error (rel L2)']);
    const tr = table.createTHead().insertRow();
    for (const h of head) {
      const th = document.createElement('th');
      th.textContent = h;
      tr.appendChild(th);
    }
    const body = table.createTBody();
    for (const collective of collectives) {
      const rows = best.filter((b) => b.collective === collective);
      const fields = varying(rows, ['dtype', 'op', 'in_place', 'mode']);
      for (const b of rows) {
        const row = body.insertRow();
        row.dataset.collective = b.collective;
        row.dataset.np = b.np;
        row.dataset.bytes = b.bytes;
        row.dataset.bestS = b.best_median_s;
        if (b.reference_median_s !== null) row.dataset.referenceS = b.reference_median_s;
        const cells = (showReport ? [b.report] : []).concat([b.collective, fields.map((f) => b[f]).join(' '), b.np, b.size, b.best, us(b.best_median_s),
          b.reference === null ? '-' : b.reference, us(b.reference_median_s), b.ratio === null ? '-' : b.ratio_text,
          b.reference_ran === null ? '-' : b.reference_ran, b.best_rel_l2_error === null ? '-' : b.best_rel_l2_error.toExponential(2)]);
        cells.forEach((v, i) => {
          const td = row.insertCell();
          td.textContent = String(v);
          if (head[i] === 'default / fastest' && b.ratio !== null && b.ratio >= 1.05) td.className = 'loses';
        });
      }
    }
    main.append(p, table);
  }

  for (const collective of collectives) {
    const all = cases.filter((c) => c.collective === collective);
    labelRows(all, varying(all, VARIANT_FIELDS));
    const measured = all.filter((c) => c.median_us !== null && c.status !== 'failed');
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
    // A line per algorithm (and variant): the report is its panel, not part of its name, so one
    // algorithm keeps its colour in every report's panel.
    const lineFields = varying(measured, VARIANT_FIELDS.filter((f) => f !== 'report'));
    for (const c of measured) c.line = c.algorithm + (lineFields.length ? ' · ' + lineFields.map((f) => c[f]).join(' ') : '');
    // Ten colours (config.range) times eight shapes before a pair of them repeats.
    const series = { field: 'line', type: 'nominal', title: 'algorithm (colour)' };
    // Vega-Lite keeps a line's colour legend apart from a point's shape legend: two lists, one key each.
    const shape = { field: 'line', type: 'nominal', title: 'algorithm (shape)' };
    const timeAxis = logAxis(measured, ['median_us', 'ci_low_us', 'ci_high_us'], 'median time (µs)');
    chart('time', collective + ': time vs size', 'Median time per call (the slowest rank of each iteration) against size, one line per algorithm, both axes logarithmic; the vertical bar at each point is the 95% confidence interval of the median. Lower is better.',
      facetByNp(measured, {
        layer: [
          { mark: { type: 'rule' }, encoding: { x: sizeAxis, y: Object.assign({ field: 'ci_low_us', type: 'quantitative' }, timeAxis), y2: { field: 'ci_high_us' }, color: series } },
          { mark: { type: 'line' }, encoding: { x: sizeAxis, y: Object.assign({ field: 'median_us', type: 'quantitative' }, timeAxis), color: series } },
          { mark: { type: 'point', size: 60, filled: true, opacity: 1 }, encoding: { x: sizeAxis, y: Object.assign({ field: 'median_us', type: 'quantitative' }, timeAxis), color: series, shape,
            tooltip: [{ field: 'series' }, { field: 'size' }, { field: 'np' }, { field: 'median_us', title: 'median (µs)', format: '.4~g' }, { field: 'ci_low_us', title: 'CI low (µs)', format: '.4~g' }, { field: 'ci_high_us', title: 'CI high (µs)', format: '.4~g' }] } },
        ],
      }));

    if (measured.some((c) => c.busbw_GBps > 0)) {
      chart('busbw', collective + ': bus bandwidth vs size', 'Bus bandwidth (GB/s, 10^9 bytes) from the median time, the collective\'s algbw times its bus factor: comparable across process counts; higher is better. Size axis logarithmic.',
        facetByNp(measured, {
          encoding: { x: sizeAxis, y: { field: 'busbw_GBps', type: 'quantitative', title: 'bus bandwidth (GB/s)' } },
          layer: [
            { mark: { type: 'line' }, encoding: { color: series } },
            { mark: { type: 'point', size: 60, filled: true, opacity: 1 }, encoding: { color: series, shape,
              tooltip: [{ field: 'series' }, { field: 'size' }, { field: 'np' }, { field: 'busbw_GBps', title: 'busbw (GB/s)', format: '.4~g' }] } },
          ],
        }));
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
          { mark: 'rect', encoding: { x: sizeOrdinal, y: { field: 'np', type: 'ordinal', title: 'processes', sort: 'descending' },
            color: { field: 'ratio', type: 'quantitative', title: 'default / best', scale: { scheme: 'oranges', domain: [1, worst] }, legend: { orient: 'bottom', direction: 'horizontal', gradientLength: 240 } },
            tooltip: [{ field: 'size' }, { field: 'np' }, { field: 'best', title: 'best' }, { field: 'best_us', title: 'best (µs)', format: '.4~g' }, { field: 'reference', title: 'default' }, { field: 'reference_us', title: 'default (µs)', format: '.4~g' }, { field: 'ratio', title: 'default / best', format: '.3f' }] } },
          { mark: { type: 'text', fontSize: 10, dy: -6, limit: step - 4 }, encoding: { x: sizeOrdinal, y: { field: 'np', type: 'ordinal', sort: 'descending' }, text: { field: 'best' }, color: cellText } },
          { mark: { type: 'text', fontSize: 11, fontWeight: 'bold', dy: 7 }, encoding: { x: sizeOrdinal, y: { field: 'np', type: 'ordinal', sort: 'descending' }, text: { field: 'ratio_text' }, color: cellText } },
        ],
      };
      const variants = new Set(bestRows.map((b) => b.variant));
      chart('heatmap', collective + ': default vs best', 'Each cell is one (process count, size): the fastest algorithm, and below it the default\'s median time over the fastest\'s (1.00x, palest: the default is the fastest; 2.00x: the default takes twice as long). Cells without a number have no default case to compare.',
        variants.size > 1 ? { data: { values: bestRows }, facet: { row: { field: 'variant', type: 'nominal', title: null } }, spec: heat } : Object.assign({ data: { values: bestRows } }, heat));

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
            tooltip: [{ field: 'series' }, { field: 'size' }, { field: 'np' }, { field: 'vs_default', title: 'time / default', format: '.3f' }, { field: 'median_us', title: 'median (µs)', format: '.4~g' }],
          },
        });
      }
    }

    if (!allOk) statusChart();

    const phaseRows = phases.filter((p) => p.collective === collective);
    if (phaseRows.length > 0) {
      labelRows(phaseRows, varying(phaseRows, VARIANT_FIELDS.concat(['np'])).map((f) => f));
      chart('phases', collective + ': phase breakdown', 'Where the time of one call goes, per instrumented algorithm and size: each bar stacks its phases (the median over the instrumented calls, the slowest rank). Compressed algorithms split into compress, communicate and decompress.', {
        data: { values: phaseRows },
        mark: 'bar',
        encoding: {
          // Bars across, one row of them per size: algorithm names stay horizontal and whole.
          row: sizeOrdinal,
          y: { field: 'series', type: 'nominal', title: null, axis: { labelLimit: 400 } },
          x: { field: 'time_us', type: 'quantitative', aggregate: 'sum', title: 'time (µs)' },
          color: { field: 'phase', type: 'nominal' },
          tooltip: [{ field: 'series' }, { field: 'size' }, { field: 'phase' }, { field: 'time_us', aggregate: 'sum', title: 'time (µs)', format: '.4~g' }],
        },
      });
    }

    const overlapRows = overlap.filter((o) => o.collective === collective);
    if (overlapRows.length > 0) {
      labelRows(overlapRows, varying(overlapRows, VARIANT_FIELDS));
      chart('overlap', collective + ': overlap of the non-blocking call with computation', 'OSU 7.4\'s overlap: computation as long as the pure communication time put between start and wait; overlap = max(0, 100 − (overall − compute) / pure comm × 100). 100% means the computation hid the whole communication, 0% that none of it progressed meanwhile.',
        facetByNp(overlapRows, {
          mark: { type: 'line', point: true },
          encoding: { x: sizeAxis, y: { field: 'overlap_percent', type: 'quantitative', scale: { domain: [0, 100] }, title: 'overlap (%)' }, color: { field: 'series', type: 'nominal', title: 'algorithm' },
            tooltip: [{ field: 'series' }, { field: 'size' }, { field: 'overlap_percent', title: 'overlap (%)', format: '.1f' }, { field: 'pure_comm_us', title: 'pure comm (µs)', format: '.4~g' }, { field: 'overall_us', title: 'overall (µs)', format: '.4~g' }, { field: 'compute_us', title: 'compute (µs)', format: '.4~g' }] },
        }));
    }

    const errorRows = compression.filter((m) => m.collective === collective && m.rel_l2_error !== null);
    if (errorRows.length > 0) {
      labelRows(errorRows, varying(errorRows, VARIANT_FIELDS));
      chart('compression', collective + ': compression error vs size', 'Relative L2 error of the compressed result against the exact one, per algorithm (dense is exact: 0, drawn at the bottom); hover for bits per element on the wire.',
        facetByNp(errorRows, {
          mark: { type: 'line', point: true },
          encoding: { x: sizeAxis, y: { field: 'rel_l2_error', type: 'quantitative', scale: { type: 'symlog', constant: 1e-6 }, title: 'relative L2 error' }, color: { field: 'series', type: 'nominal', title: 'algorithm' },
            tooltip: [{ field: 'series' }, { field: 'size' }, { field: 'rel_l2_error', format: '.3e' }, { field: 'bits_per_element', format: '.3~g' }] },
        }));

      // Speed against accuracy: each compressed case's speedup over the library's own collective at
      // its size (else over the dense allreduce), against its error. A "fastest" means nothing alone.
      const sameSize = (c) => [c.report, c.collective, c.dtype, c.op, c.in_place, c.mode, c.np, c.bytes].join('|');
      const baselineOf = new Map();
      for (const c of measured) {
        const kind = c.backend + ':' + c.algorithm.replace(/^[^/]*\//, '');
        const rank = kind === 'mpi:default' || kind === 'nccl:default' ? 2 : kind.endsWith(':dense') ? 1 : 0;
        const seen = baselineOf.get(sameSize(c));
        if (rank > 0 && (!seen || rank > seen.rank)) baselineOf.set(sameSize(c), { rank, median_s: c.median_s, label: c.algorithm });
      }
      const tradeoff = errorRows.filter((m) => m.median_s !== null && baselineOf.has(sameSize(m)))
        .map((m) => Object.assign({}, m, { speedup: baselineOf.get(sameSize(m)).median_s / m.median_s, baseline: baselineOf.get(sameSize(m)).label }));
      if (tradeoff.length > 0) {
        const against = [...new Set(tradeoff.map((t) => t.baseline))].join(', ');
        chart('tradeoff', collective + ': speedup against error', 'Each compressed case: its speedup over ' + against + ' at its size (above 1: faster) against its relative L2 error (0: exact). Up and left is better; a fast algorithm far right gives a wrong answer quickly.',
          facetByNp(tradeoff, {
            mark: { type: 'point', filled: true, size: 70 },
            encoding: { x: { field: 'rel_l2_error', type: 'quantitative', scale: { type: 'symlog', constant: 1e-6 }, title: 'relative L2 error' },
              y: { field: 'speedup', type: 'quantitative', scale: { type: 'log' }, title: 'speedup over ' + against },
              color: { field: 'series', type: 'nominal', title: 'algorithm' }, shape: { field: 'size', type: 'nominal', title: 'size', sort: { field: 'bytes' } },
              tooltip: [{ field: 'series' }, { field: 'size' }, { field: 'speedup', format: '.3f' }, { field: 'baseline' }, { field: 'rel_l2_error', format: '.3e' }] },
          }));
      }
    }
  }

  // Reports side by side: each case against the same case of the first report.
  if (several) {
    const first = new Map();
    const key = (c) => [c.collective, c.algorithm, c.dtype, c.op, c.in_place, c.mode, c.np, c.bytes].join('|');
    const firstLabel = data.reports[0].label;
    for (const c of cases) if (c.report === firstLabel && c.median_s !== null) first.set(key(c), c.median_s);
    const paired = cases.filter((c) => c.report !== firstLabel && c.median_s !== null && first.has(key(c)))
      .map((c) => Object.assign({}, c, { vs_first: c.median_s / first.get(key(c)), label: c.collective + ' ' + c.algorithm }));
    section('compared', 'reports compared');
    if (paired.length > 0) {
      chart('reports', 'time against report 1', 'Each measured case of a later report divided by the same case (collective, algorithm, datatype, op, processes, size) of report ' + firstLabel + ': below 1 is faster than there. Logarithmic axes.', {
        data: { values: paired },
        facet: { field: 'report', type: 'nominal', title: null }, columns: 2,
        spec: { mark: { type: 'point', filled: true }, encoding: { x: sizeAxis, y: { field: 'vs_first', type: 'quantitative', scale: { type: 'log' }, title: 'time / report 1 time' }, color: { field: 'label', type: 'nominal', title: 'collective, algorithm' },
          tooltip: [{ field: 'label' }, { field: 'size' }, { field: 'np' }, { field: 'vs_first', format: '.3f' }] } },
      });
    } else {
      const p = document.createElement('p');
      p.textContent = 'No case of a later report matches one of report ' + firstLabel + '.';
      main.appendChild(p);
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

  // One chart after the other: a failing spec is reported and the rest still draw.
  (async () => {
    for (const c of charts) {
      try {
        await vegaEmbed(c.div, c.spec, { renderer: 'svg', actions: { export: true, source: false, compiled: false, editor: false } });
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
    document.body.dataset.picoLabelOverlaps = String(overlaps);
    document.body.dataset.picoLabelOverlapExamples = examples.join('; ');
    document.body.dataset.picoDone = 'true';
  })();
})();
