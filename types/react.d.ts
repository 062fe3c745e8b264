// attention-explorer/react: the element (importing it defines <attention-explorer>, as
// attention-explorer/element does) and its JSX types for React 18 and 19 in TSX:
//
//   import 'attention-explorer/react';
//   <attention-explorer preset="cat" step="softmax" follow={4} layout="compact" />
//
// React 19 sets a prop the element has as a property (config as an object, follow as a number)
// and listens to `onexplorer-select` and the other events itself; React 18 sets every prop as an
// attribute text (config as JSON text) and ignores event props: listen through a ref there
// (docs/embedding.md, "React").
import type * as React from 'react';
import type { AttentionExplorer, AttentionExplorerEventDetails, ControlGroup, LayoutSetting, Mode, ThemeSetting } from './element';
import type { ConfigInput, Step } from './config';
import type { PresetName } from './presets';

export * from './element';

/** The element's attributes, as JSX props. */
export interface AttentionExplorerAttributes {
  preset?: PresetName | (string & {});
  /** JSON text (React 18 and 19), or an object (React 19 sets it as the property). */
  config?: string | ConfigInput;
  src?: string;
  step?: Step;
  follow?: number | string;
  causal?: boolean | 'true' | 'false';
  /** space-separated control groups, e.g. "steps follow explain" */
  controls?: string | readonly ControlGroup[];
  layout?: LayoutSetting;
  theme?: ThemeSetting;
  mode?: Mode;
  params?: string;
}

/** `onexplorer-select` and the rest: React 19 listens to the element's events by these props. */
export type AttentionExplorerEventProps = {
  [K in keyof AttentionExplorerEventDetails as `on${K}`]?: (event: CustomEvent<AttentionExplorerEventDetails[K]>) => void;
};

/** Everything <attention-explorer> takes in JSX. */
export type AttentionExplorerJSX = React.DetailedHTMLProps<React.HTMLAttributes<AttentionExplorer>, AttentionExplorer> & AttentionExplorerAttributes & AttentionExplorerEventProps;

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'attention-explorer': AttentionExplorerJSX;
    }
  }
}
