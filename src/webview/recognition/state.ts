/** The webview's state: what the host sent, and the elements and numbers of what is on screen. */
import type { BoxView, ImageView, ResultView, TypeOption, WebviewStrings } from '../../recognition/protocol';

/** Rows rendered beyond the visible ones, above and below. */
export const OVERSCAN = 8;
/** Above this many boxes, labels are painted only for the highlighted box. */
export const LABEL_LIMIT = 150;

/** The virtualised detections table: only the rows in view (plus a margin) exist in the DOM. */
export interface TableState {
  wrap: HTMLElement | undefined;
  tbody: HTMLTableSectionElement | undefined;
  top: HTMLTableRowElement | undefined;
  bottom: HTMLTableRowElement | undefined;
  rows: Map<number, HTMLTableRowElement>;
  first: number;
  end: number;
  rowH: number;
}

/** Everything the modules share. */
export interface ViewState {
  /** The localised strings (from `init`). */
  strings: WebviewStrings | undefined;
  types: TypeOption[];
  view: ResultView | undefined;
  /** The picture on screen (during loading, or of the result). */
  pic: ImageView | undefined;
  boxes: BoxView[];
  currentType: string;
  scale: number;
  fit: boolean;
  highlighted: number;
  /** The table row that takes the focus (roving tabindex). */
  active: number;
  /**
   * The picture element, kept across loading → result when the source is the same (no second
   * load): an `<img>`, or a `<canvas>` showing the pixels this webview shrank (./figure).
   */
  pictureEl: HTMLImageElement | HTMLCanvasElement | undefined;
  canvas: HTMLCanvasElement | undefined;
  stageEl: HTMLElement | undefined;
  viewportEl: HTMLElement | undefined;
  /** The DOM overlay of the highlighted box (boxes themselves are painted on the canvas). */
  hlEl: HTMLElement | undefined;
  table: TableState;
}

function emptyTable(rowH = 0): TableState {
  return {
    wrap: undefined,
    tbody: undefined,
    top: undefined,
    bottom: undefined,
    rows: new Map(),
    first: 0,
    end: 0,
    rowH,
  };
}

/** The one state of the page. */
export const st: ViewState = {
  strings: undefined,
  types: [],
  view: undefined,
  pic: undefined,
  boxes: [],
  currentType: '',
  scale: 1,
  fit: true,
  highlighted: -1,
  active: 0,
  pictureEl: undefined,
  canvas: undefined,
  stageEl: undefined,
  viewportEl: undefined,
  hlEl: undefined,
  table: emptyTable(),
};

/** The strings; `init` always comes first. */
export function strings(): WebviewStrings {
  return st.strings as WebviewStrings;
}

/** Forgets the figure and table of the previous view (the picture element is kept for reuse). */
export function reset(): void {
  st.view = undefined;
  st.pic = undefined;
  st.boxes = [];
  st.highlighted = -1;
  st.active = 0;
  st.canvas = undefined;
  st.stageEl = undefined;
  st.viewportEl = undefined;
  st.hlEl = undefined;
  // The measured row height stays (fixed in the style sheet).
  st.table = emptyTable(st.table.rowH);
}
