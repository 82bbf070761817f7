import { barChart } from '../../bench/charts.js';

describe('bench charts', () => {
  it('draw one bar per measured value and say when a case was not measured', () => {
    const svg = barChart({
      title: 'Requests per second',
      unit: 'req/s',
      series: [{ name: '0 ms', color: '#000' }, { name: '5 ms', color: '#111' }],
      rows: [{ label: 'ours', values: [2668, 2512] }, { label: 'floor', values: [undefined, 3000] }],
    });
    expect(svg.startsWith('<svg ')).toBe(true);
    expect(svg.match(/<rect x="190" y="\d+" width="[\d.]+" height="16"/g)).toHaveLength(3);
    expect(svg).toContain('2,668 req/s');
    expect(svg).toContain('not measured');
  });

  it('escape labels', () => {
    expect(barChart({ title: 'a < b & c', unit: 'ms', series: [{ name: 's', color: '#000' }], rows: [] })).toContain('a &lt; b &amp; c');
  });
});
