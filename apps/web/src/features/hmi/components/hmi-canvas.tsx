import { HMI_GRID_COLS, type HmiCanvas, type HmiWidget } from '@loggerhead/contract/schemas/hmi.ts';
import { useEffect, useRef, useState } from 'react';
import { dragCells } from '../lib/canvas.ts';
import { HmiWidgetView } from './hmi-widget.tsx';
import type { LiveValue } from './use-hmi-live.ts';

/** The canvas's width in pixels, followed as its box changes (the grid's columns share it). */
function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(960);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth || 960);
    const ro = new ResizeObserver(() => setWidth(el.clientWidth || 960));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return { ref, width };
}

interface Drag {
  id: string;
  mode: 'move' | 'resize';
  px: number;
  py: number;
  start: Pick<HmiWidget, 'x' | 'y' | 'w' | 'h'>;
}

/**
 * A screen's grid of widgets. Live: the widgets with their values, buttons pressable. Editing: a
 * widget is selected by a click, moved by dragging it and resized by its corner, snapping to cells.
 */
export function HmiCanvasView({
  canvas,
  values,
  live,
  selected,
  onSelect,
  onChange,
  pressing,
  onPress,
}: {
  canvas: HmiCanvas;
  values?: Map<string, LiveValue>;
  live: boolean;
  selected?: string | null;
  onSelect?: (id: string | null) => void;
  onChange?: (id: string, cells: Pick<HmiWidget, 'x' | 'y' | 'w' | 'h'>) => void;
  pressing?: string | null;
  onPress?: (w: HmiWidget) => void;
}) {
  const { ref, width } = useWidth();
  const [drag, setDrag] = useState<Drag | null>(null);
  const colW = width / HMI_GRID_COLS;
  const rowH = canvas.row_height;
  const rows = Math.max(8, canvas.widgets.reduce((m, w) => Math.max(m, w.y + w.h), 0) + (live ? 0 : 4));

  const begin = (e: React.PointerEvent, w: HmiWidget, mode: Drag['mode']) => {
    if (live || e.button !== 0) return;
    e.stopPropagation();
    (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
    onSelect?.(w.id);
    setDrag({ id: w.id, mode, px: e.clientX, py: e.clientY, start: { x: w.x, y: w.y, w: w.w, h: w.h } });
  };
  const move = (e: React.PointerEvent) => {
    if (!drag) return;
    const cells = dragCells(drag.start, e.clientX - drag.px, e.clientY - drag.py, { width: colW, height: rowH }, drag.mode);
    onChange?.(drag.id, cells);
  };
  const end = () => setDrag(null);

  return (
    <div
      ref={ref}
      className={`lh-hmi__canvas${live ? ' lh-hmi__canvas--live' : ''}`}
      style={{
        height: rows * rowH,
        backgroundSize: `${colW}px ${rowH}px`,
        ...(canvas.background ? { backgroundColor: canvas.background } : {}),
      }}
      onPointerDown={() => !live && onSelect?.(null)}
      data-testid="hmi-canvas"
    >
      {canvas.widgets.map((w) => (
        <div
          key={w.id}
          className={`lh-hmi__cell${live ? '' : ' lh-hmi__cell--edit'}${selected === w.id ? ' lh-hmi__cell--selected' : ''}`}
          style={{ left: w.x * colW, top: w.y * rowH, width: w.w * colW, height: w.h * rowH }}
          data-testid={`hmi-widget-${w.id}`}
          data-type={w.type}
          onPointerDown={(e) => begin(e, w, 'move')}
          onPointerMove={move}
          onPointerUp={end}
          onPointerCancel={end}
        >
          <div className="lh-hmi__card">
            <HmiWidgetView w={w} values={values} live={live} pressing={pressing === w.id} onPress={onPress} />
          </div>
          {/* In the editor a cover takes the pointer: a widget's own controls (a button) neither act nor swallow the drag. */}
          {!live && <div className="lh-hmi__cover" />}
          {!live && selected === w.id && (
            <div
              className="lh-hmi__handle"
              data-testid={`hmi-resize-${w.id}`}
              onPointerDown={(e) => begin(e, w, 'resize')}
              onPointerMove={move}
              onPointerUp={end}
              onPointerCancel={end}
            />
          )}
        </div>
      ))}
    </div>
  );
}
