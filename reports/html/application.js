// SPDX-License-Identifier: BSD-3-Clause
// The HTML report of an application run (docs/report.md#html-report): per
// process count, the text table's figures (pico computed and wrote every one,
// reports/application_texts.hpp) as tables and charts. charts.js calls
// picoApplicationPage with the page's parts; every string of the report goes
// into the page as text (textContent, Vega's own text), never as markup.
(function () {
  'use strict';

  // A verdict's colour: faster green, slower red; undecided grey (never a faster's colour), the baseline blue.
  const VERDICTS = { domain: ['faster', 'slower', 'undecided', 'not measured', 'baseline'],
    range: ['#2ca02c', '#d62728', '#8c8c8c', '#bab0ac', '#1f4e9c'] };
  const verdictColour = { field: 'verdict', type: 'nominal', title: 'verdict', scale: VERDICTS };
  const verdictClass = (verdict) => (verdict === 'faster' ? 'faster' : verdict === 'slower' ? 'loses' : '');

  function element(tag, text, className) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (className) e.className = className;
    return e;
  }

  // A table of the cells pico wrote: columns [{name, number}], rows of strings; classOf(row, column) adds a class.
  function cellTable(columns, rows, classOf) {
    const table = element('table', undefined, 'summary');
    const head = table.createTHead().insertRow();
    for (const c of columns) head.appendChild(element('th', c.name, c.number ? 'num' : undefined));
    const body = table.createTBody();
    rows.forEach((row, r) => {
      const tr = body.insertRow();
      row.forEach((text, i) => {
        const td = tr.insertCell();
        td.textContent = text;
        const extra = classOf ? classOf(r, i) : '';
        const classes = [columns[i].number ? 'num' : '', extra].filter((x) => x);
        if (classes.length > 0) td.className = classes.join(' ');
      });
    });
    return table;
  }

  window.picoApplicationPage = function ({ data, main, section, chart, logAxis }) {
    const column = (name) => data.variant_columns.findIndex((c) => c.name === name);
    const heading = element('p', data.heading, 'counts');
    heading.style.whiteSpace = 'pre-wrap';
    const definition = element('p', data.definition, 'how');
    definition.style.whiteSpace = 'pre-wrap';
    main.append(heading, definition);
    main.appendChild(cellTable([{ name: 'variant' }, { name: 'what it runs' }], data.variants));

    for (const per of data.processes) {
      const np = per.np;
      const variants = per.variants;
      const order = variants.map((v) => v.variant);
      section('np-' + np, 'np ' + np);
      const verdictAt = column('verdict'), speedupAt = column('speedup');
      const summary = cellTable(data.variant_columns, variants.map((v) => v.cells),
        (r, i) => (i === verdictAt || i === speedupAt ? verdictClass(variants[r].verdict) : ''));
      summary.dataset.np = np;
      summary.classList.add('application-summary');
      main.appendChild(summary);
      const notes = element('ul', undefined, 'notes');
      for (const v of variants) {
        for (const note of v.notes) notes.appendChild(element('li', v.variant + ': ' + note));
        for (const f of v.failures) {
          const li = element('li');
          const details = element('details');
          details.append(element('summary', v.variant + ': ' + f.text), element('pre', f.output_tail, 'output-tail'));
          li.appendChild(details);
          notes.appendChild(li);
        }
      }
      if (notes.children.length > 0) main.appendChild(notes);
      const y = { field: 'variant', type: 'nominal', sort: order, title: null };

      // The speedup with its interval; an interval reaching past three times the estimates is cut at the
      // axis and marked there by a triangle (its whole: in the table and the tooltip).
      const points = variants.filter((v) => v.speedup !== null || v.verdict === 'baseline').map((v) => Object.assign({}, v,
        { speedup: v.verdict === 'baseline' ? 1 : v.speedup, speedup_text: v.verdict === 'baseline' ? 'baseline (1)' : v.speedup_text }));
      const centres = points.map((v) => v.speedup).concat(points.filter((v) => v.predicted !== null).map((v) => v.predicted), [1]);
      const lowest = Math.min(...centres) / 3, highest = Math.max(...centres) * 3;
      for (const v of points) {
        v.clamped_low = v.speedup_low !== null && v.speedup_low < lowest;
        v.clamped_high = v.speedup_high !== null && v.speedup_high > highest;
        v.low_drawn = v.speedup_low === null ? null : Math.max(v.speedup_low, lowest);
        v.high_drawn = v.speedup_high === null ? null : Math.min(v.speedup_high, highest);
      }
      const axis = logAxis(points, ['speedup', 'low_drawn', 'high_drawn', 'predicted'], 'speedup over the default (its time / the variant\'s)');
      const x = (field) => Object.assign({ field, type: 'quantitative' }, axis);
      const tooltip = [{ field: 'variant' }, { field: 'speedup_text', title: 'speedup' }, { field: 'interval_text', title: '95% interval' },
        { field: 'verdict' }, { field: 'predicted', title: 'predicted', format: '.3f' }];
      const height = Math.max(60, 34 * points.length);
      if (points.length > 0) {
        chart('app-speedup', 'np ' + np + ': speedup over the default', 'Each variant\'s speedup (the point) with its 95% interval (the bar; ' +
          'a triangle at the axis\' end: the interval goes on beyond it), coloured by its verdict: green faster, red slower, grey undecided ' +
          '(the interval holds 1, the dashed line), blue the default, the baseline every variant is measured against. An open diamond: the ' +
          'speedup predicted from the sweep\'s speedups at the calls the profile changes. Logarithmic axis.', {
          data: { values: points }, width: 560, height,
          layer: [
            { mark: { type: 'rule', strokeDash: [4, 3], color: '#888' }, encoding: { x: { datum: 1, type: 'quantitative' } } },
            { transform: [{ filter: 'datum.low_drawn !== null' }], mark: { type: 'rule', strokeWidth: 3 },
              encoding: { y, x: x('low_drawn'), x2: { field: 'high_drawn' }, color: verdictColour, tooltip } },
            { mark: { type: 'point', filled: true, size: 110, opacity: 1 },
              encoding: { y, x: x('speedup'), color: verdictColour, shape: { condition: { test: "datum.verdict === 'baseline'", value: 'square' }, value: 'circle' }, tooltip } },
            { transform: [{ filter: 'datum.clamped_low' }], mark: { type: 'point', shape: 'triangle-left', filled: true, size: 120, opacity: 1 },
              encoding: { y, x: x('low_drawn'), color: verdictColour, tooltip } },
            { transform: [{ filter: 'datum.clamped_high' }], mark: { type: 'point', shape: 'triangle-right', filled: true, size: 120, opacity: 1 },
              encoding: { y, x: x('high_drawn'), color: verdictColour, tooltip } },
            { transform: [{ filter: 'datum.predicted !== null' }], mark: { type: 'point', shape: 'diamond', filled: false, size: 130, strokeWidth: 2, color: '#222', opacity: 1 },
              encoding: { y, x: x('predicted'), tooltip } },
            { mark: { type: 'text', align: 'left', dx: 10, dy: -10, fontSize: 11 }, encoding: { y, x: x('speedup'), text: { field: 'speedup_text' } } },
          ],
        });
      }

      // Every round's value: the spread the interval is drawn from.
      const rounds = variants.flatMap((v) => v.value_by_round.map((value, i) => ({ variant: v.variant, verdict: v.verdict, round: i + 1, value, median: v.median })));
      if (rounds.length > 0) {
        const value = { field: 'value', type: 'quantitative', scale: { zero: false }, title: 'time of each round (its median launch)' };
        chart('app-rounds', 'np ' + np + ': time per round', 'One point per round and variant (' + data.metric + '); the tick is the variant\'s median time, the table\'s "median time". Points spread wide are rounds the run measured unlike each other: a speedup drawn from them is uncertain.', {
          data: { values: rounds }, width: 560, height: Math.max(60, 34 * variants.length),
          layer: [
            { mark: { type: 'tick', thickness: 2, color: '#222' }, encoding: { y, x: { field: 'median', type: 'quantitative' } } },
            { mark: { type: 'point', filled: true, size: 60, opacity: 0.75 }, encoding: { y, x: value, color: verdictColour,
              tooltip: [{ field: 'variant' }, { field: 'round', title: 'measured round' }, { field: 'value', title: 'time', format: '.4~f' }, { field: 'median', title: 'median time', format: '.4~f' }] } },
          ],
        });
      }

      // The shares of the run, as the table's columns name them.
      const inCollectives = data.variant_columns[column('in collectives')].name;
      const inChanged = data.variant_columns[column('in calls changed')].name;
      const shares = variants.flatMap((v) => [
        { variant: v.variant, part: inCollectives, percent: 100 * v.collective_share, text: v.cells[column('in collectives')] },
      ].concat(v.changed_share === null ? [] : [{ variant: v.variant, part: inChanged, percent: 100 * v.changed_share, text: v.cells[column('in calls changed')] }]));
      chart('app-shares', 'np ' + np + ': the run\'s share in collectives and in the calls changed', '"in collectives": the variant\'s time in collective calls (the mean over ranks) over its run, MPI_Init to MPI_Finalize; "in calls changed": the default\'s time at the call sites whose algorithm the variant changed, over the default\'s run: what bounds the variant\'s gain.', {
        data: { values: shares }, width: 560, height: Math.max(60, 40 * variants.length),
        mark: 'bar',
        encoding: { y, yOffset: { field: 'part', sort: [inCollectives, inChanged] }, x: { field: 'percent', type: 'quantitative', title: 'share of the run (%)', scale: { domain: [0, 100] } },
          color: { field: 'part', type: 'nominal', title: null, sort: [inCollectives, inChanged], scale: { range: ['#4c78a8', '#f58518'] } },
          tooltip: [{ field: 'variant' }, { field: 'part' }, { field: 'text', title: 'share' }] },
      });

      // Where the realized saving went: inside the collectives and outside them.
      const saving = variants.filter((v) => v.realized_saving !== null).flatMap((v) => [
        { variant: v.variant, part: 'saved per launch (median)', seconds: v.realized_saving.run_s },
        { variant: v.variant, part: 'of it in collectives', seconds: v.realized_saving.in_collectives_s },
        { variant: v.variant, part: 'of it outside them', seconds: v.realized_saving.outside_collectives_s },
      ]);
      if (saving.length > 0) {
        const parts = ['saved per launch (median)', 'of it in collectives', 'of it outside them'];
        chart('app-saving', 'np ' + np + ': where the realized saving went', 'The default\'s run (MPI_Init to MPI_Finalize, the slowest rank; median per launch) minus the variant\'s, split into the time saved in collectives (the mean over ranks) and outside them; a negative bar is time lost. A prediction from the calls sees only the part in collectives.', {
          data: { values: saving }, width: 560, height: Math.max(60, 48 * saving.length / 3),
          mark: 'bar',
          encoding: { y: { field: 'variant', type: 'nominal', sort: order, title: null }, yOffset: { field: 'part', sort: parts },
            x: { field: 'seconds', type: 'quantitative', title: 'seconds saved per launch' },
            color: { field: 'part', type: 'nominal', title: null, sort: parts, scale: { range: ['#1f4e9c', '#4c78a8', '#b279a2'] } },
            tooltip: [{ field: 'variant' }, { field: 'part' }, { field: 'seconds', title: 'seconds', format: '.4~f' }] },
        });
      }

      // The call sites of each variant against the default's: the longest twelve, the others folded.
      for (const v of variants) {
        if (v.verdict === 'baseline' || v.calls.length === 0) continue;
        const columns = v.profile ? data.profile_call_columns : data.call_columns;
        const takenAt = columns.findIndex((c) => c.name === 'taken');
        const classOf = (rows) => (r, i) => (i === takenAt && rows[r][i] === 'NO' ? 'loses' : '');
        main.appendChild(element('h3', 'calls of ' + v.variant + ' (np ' + np + '), per launch'));
        const shown = v.calls.slice(0, 12), rest = v.calls.slice(12);
        const wrap = element('div', undefined, 'pico-table');
        const table = cellTable(columns, shown, classOf(shown));
        table.classList.add('application-calls');
        table.dataset.variant = v.variant;
        wrap.appendChild(table);
        if (rest.length > 0) {
          const details = element('details');
          details.appendChild(element('summary', rest.length + ' more call site(s)'));
          details.appendChild(cellTable(columns, rest, classOf(rest)));
          wrap.appendChild(details);
        }
        main.appendChild(wrap);
      }
    }

    section('provenance', 'provenance');
    main.appendChild(element('h3', data.label));
    const table = element('table', undefined, 'provenance');
    for (const [name, value] of data.provenance) {
      const tr = table.insertRow();
      tr.appendChild(element('th', name));
      tr.insertCell().textContent = value;
    }
    main.appendChild(table);
  };
})();
