import { describe, expect, it } from 'vitest';
import { Counter, Histogram } from './metrics-registry.js';

describe('metric series', () => {
  it('are the same series whatever order the labels are written in', () => {
    const counter = new Counter('answers_total', 'Answers.');
    counter.inc({ method: 'GET', route: '/a', status: '200' });
    counter.inc({ status: '200', route: '/a', method: 'GET' });
    counter.inc({ route: '/a', method: 'GET', status: '200' });
    counter.inc({ method: 'GET', route: '/b', status: '200' });
    expect(counter.lines()).toEqual([
      'answers_total{method="GET",route="/a",status="200"} 3',
      'answers_total{method="GET",route="/b",status="200"} 1',
    ]);
    const histogram = new Histogram('answer_seconds', 'Time.', [0.1, 1]);
    histogram.observe({ route: '/a', method: 'GET' }, 0.05);
    histogram.observe({ method: 'GET', route: '/a' }, 0.5);
    expect(histogram.lines().filter((l) => l.startsWith('answer_seconds_count'))).toEqual([
      'answer_seconds_count{route="/a",method="GET"} 2',
    ]);
  });
});
