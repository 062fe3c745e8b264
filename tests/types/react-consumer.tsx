// A React 19 user of <attention-explorer> in TSX (make test-types type-checks it with
// @types/react 19; make test-hosts builds the guide's React 18 and 19 apps with their own types).
// Every line must pass, and every line after `@ts-expect-error` must be refused, or tsc fails.
import { useRef, useState } from 'react';
import 'attention-explorer/react';
import type { AttentionExplorer } from 'attention-explorer/react';
import type { ConfigInput } from 'attention-explorer/config';

export function Lesson() {
  const ref = useRef<AttentionExplorer>(null);
  const [head] = useState<ConfigInput>({ tokens: ['I', 'saw', 'it'], Q: [[1, 0], [0, 1], [1, 1]], K: [[1, 0], [0, 1], [1, 1]], V: [[1, 0], [0, 2], [3, 1]] });
  const [row, setRow] = useState<number | null>(null);
  return (
    <>
      <attention-explorer ref={ref} preset="cat" step="softmax" follow={4} controls="steps follow explain" layout="compact" theme="auto" />
      <attention-explorer id="mine" config={head} causal={false} onexplorer-select={(e) => setRow(e.detail.follow)} onexplorer-ready={() => ref.current?.exportCSV('A')} />
      <attention-explorer config={JSON.stringify(head)} mode="sqrt-dk-lab" params="dk=64" className="wide" />
      <p>{row}</p>
      {/* @ts-expect-error: not a step */}
      <attention-explorer step="sotfmax" />
      {/* @ts-expect-error: not a layout */}
      <attention-explorer layout="small" />
      {/* @ts-expect-error: an event's detail is typed (follow is a number or null) */}
      <attention-explorer onexplorer-select={(e) => e.detail.follow.toFixed()} />
    </>
  );
}
