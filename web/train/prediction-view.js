// @ts-check
// train/prediction-view.js: one row's predicted probabilities as a bar list (textContent only),
// from predictionBars() and predictionCaption() (web/train/words.js).

/**
 * @param {HTMLElement} cap the heading @param {HTMLOListElement} list
 * @param {{ caption: string, bars: ReturnType<typeof import('./words.js').predictionBars> }} p
 */
export function drawPrediction(cap, list, p) {
  const doc = list.ownerDocument;
  cap.textContent = p.caption;
  list.textContent = '';
  for (const b of p.bars) {
    const li = list.appendChild(doc.createElement('li'));
    li.className = (b.target ? 'target ' : '') + (b.top ? 'top' : '');
    li.setAttribute('aria-label', `${b.word}: ${b.text}${b.target ? ', the right answer' : ''}`);
    const word = li.appendChild(doc.createElement('span'));
    word.className = 'word';
    word.textContent = b.word;
    const track = li.appendChild(doc.createElement('span'));
    track.className = 'track';
    const bar = track.appendChild(doc.createElement('span'));
    bar.className = 'fill';
    bar.style.width = (b.frac * 100).toFixed(1) + '%';
    const v = li.appendChild(doc.createElement('span'));
    v.className = 'p';
    v.textContent = b.text;
  }
}
