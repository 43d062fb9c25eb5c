// The heuristic inspector: each estimate of the board shown beside the exact distance h*, the gap,
// and w x h for a weight w, flagged where it exceeds h* (an overestimate: inadmissible here).
// In practice mode h* and what depends on it are hidden until asked.

let app;
let $;

export function init(a) {
  app = a;
  $ = a.$;
  app.onPosition(render);
  app.onState((state, before) => {
    if (app.pos && (state.practice !== before.practice || state.reveal !== before.reveal)) render(app.pos);
  });
  $('weight').addEventListener('input', () => app.pos && render(app.pos));
}

function cell(row, text, cls) {
  const td = document.createElement('td');
  td.textContent = text;
  if (cls) td.className = cls;
  row.append(td);
  return td;
}

function render(pos) {
  const w = Number($('weight').value);
  $('weight-value').textContent = w.toFixed(1);
  const body = $('inspector-rows');
  body.replaceChildren();
  const exact = app.answers() ? pos.distance : null;
  const unknown = app.answers() ? '?' : 'hidden';
  for (const h of pos.heuristics) {
    const tr = document.createElement('tr');
    tr.dataset.heuristic = h.name;
    cell(tr, h.label + (h.admissible ? '' : ' *'));
    if (h.value === null) {
      cell(tr, '-');
      cell(tr, exact === null ? unknown : String(exact));
      cell(tr, '-');
      cell(tr, '-');
      cell(tr, '');
    } else {
      cell(tr, String(h.value), 'num');
      cell(tr, exact === null ? unknown : String(exact), 'num');
      cell(tr, exact === null ? unknown : String(exact - h.value), exact !== null && h.value > exact ? 'num over' : 'num');
      const weighted = w * h.value;
      cell(tr, Number.isInteger(weighted) ? String(weighted) : weighted.toFixed(1), 'num');
      const over = exact !== null && weighted > exact;
      cell(tr, over ? 'over' : exact === null ? '' : 'ok', over ? 'flag over' : 'flag ok');
      if (over) tr.classList.add('over-row');
    }
    body.append(tr);
  }
}
