// A list that renders only the rows in view (fixed row height), for tables of thousands of tasks.
import { useState, type ReactNode } from 'react';

export function VirtualList<T>({
  items,
  rowHeight,
  height,
  render,
  testId,
}: {
  items: T[];
  rowHeight: number;
  height: number | string;
  render: (item: T, index: number) => ReactNode;
  testId?: string;
}) {
  const [top, setTop] = useState(0);
  const viewport = typeof height === 'number' ? height : 2000;
  const first = Math.max(0, Math.floor(top / rowHeight) - 10);
  const last = Math.min(items.length, Math.ceil((top + viewport) / rowHeight) + 10);
  return (
    <div
      className="vlist"
      style={{ height, overflowY: 'auto' }}
      onScroll={(e) => setTop(e.currentTarget.scrollTop)}
      data-testid={testId}
    >
      <div style={{ height: items.length * rowHeight, position: 'relative' }}>
        {items.slice(first, last).map((item, i) => (
          <div
            key={first + i}
            style={{
              position: 'absolute',
              top: (first + i) * rowHeight,
              height: rowHeight,
              left: 0,
              right: 0,
            }}
          >
            {render(item, first + i)}
          </div>
        ))}
      </div>
    </div>
  );
}
