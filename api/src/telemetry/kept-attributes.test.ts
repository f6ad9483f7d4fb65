import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { cleanSpan } from './kept-attributes';

/** A span as the SDK hands it to the exporter, with what must never leave the process. */
function span(over: Partial<ReadableSpan>): ReadableSpan {
  const context = { traceId: '1'.repeat(32), spanId: '2'.repeat(16), traceFlags: 1 };
  return {
    name: 'GET',
    kind: 1,
    spanContext: () => context,
    startTime: [1, 0],
    endTime: [2, 0],
    status: { code: 0 },
    attributes: {},
    links: [],
    events: [],
    duration: [1, 0],
    ended: true,
    resource: {} as ReadableSpan['resource'],
    instrumentationScope: { name: 'test' },
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
    ...over,
  };
}

describe('cleanSpan: what a span may take out of the process', () => {
  it('keeps the listed attributes, URLs redacted as in the logs; drops the client, its agent and values', () => {
    const cleaned = cleanSpan(
      span({
        attributes: {
          'http.request.method': 'GET',
          'http.route': '/fhir/R4/Patient',
          'url.path': '/patient/reset-password/p1/SECRETTOKEN',
          'url.query': 'name=Lopez&birthdate=1985-03-12&_count=10',
          'url.full': 'https://bucket.example/files/a.pdf?X-Amz-Signature=abc&page=2',
          'client.address': '203.0.113.9',
          'network.peer.address': '203.0.113.9',
          'user_agent.original': 'Mozilla/5.0',
          'http.request.header.authorization': ['Bearer abc'],
          'db.query.text': 'select * from "patients" where "email" = $1',
          'db.postgresql.values': ['maria@example.com'],
          'careloop.request_id': 'req-12345678',
        },
      }),
    );
    expect(cleaned.attributes).toEqual({
      'http.request.method': 'GET',
      'http.route': '/fhir/R4/Patient',
      'url.path': '/patient/reset-password/p1/[redacted]',
      'url.query': 'name=[redacted]&birthdate=[redacted]&_count=10',
      'url.full': 'https://bucket.example/files/a.pdf?X-Amz-Signature=[redacted]&page=2',
      'db.query.text': 'select * from "patients" where "email" = $1',
      'careloop.request_id': 'req-12345678',
    });
    expect(cleaned.spanContext()).toEqual(span({}).spanContext());
  });

  it('keeps an error status without its description, and no exception event (both can quote a value)', () => {
    const cleaned = cleanSpan(
      span({
        status: { code: 2, message: 'invalid input syntax for type uuid: "Maria Lopez"' },
        events: [{ name: 'exception', time: [1, 0], attributes: { 'exception.message': 'Maria Lopez' } }],
        links: [{ context: span({}).spanContext(), attributes: { note: 'Maria Lopez' } }],
      }),
    );
    expect(cleaned.status).toEqual({ code: 2 });
    expect(cleaned.events).toEqual([]);
    expect(cleaned.droppedEventsCount).toBe(1);
    expect(JSON.stringify(cleaned.links)).not.toContain('Maria');
  });
});
