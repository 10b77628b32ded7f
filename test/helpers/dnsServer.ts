/**
 * A small DNS server on 127.0.0.1 (UDP, a free port) that answers the TXT, CNAME, A and AAAA
 * records a test sets, NXDOMAIN for names it has none for, or SERVFAIL to everything while
 * `failing`. Point DNS_SERVERS at `hostPort`.
 */
import dns2 from 'dns2';

const { Packet } = dns2;
type RecordType = 'TXT' | 'CNAME' | 'A' | 'AAAA';

export interface TestDns {
  hostPort: string;
  /** Sets the name's records of one type (an empty list removes them). */
  set(name: string, type: RecordType, values: string[]): void;
  /** Every record removed, and answering again. */
  reset(): void;
  /** SERVFAIL to every query while true. */
  failing: boolean;
  close(): Promise<void>;
}

function answer(name: string, type: RecordType, value: string) {
  const base = { name, type: Packet.TYPE[type], class: Packet.CLASS.IN, ttl: 0 };
  if (type === 'TXT') return { ...base, data: value };
  if (type === 'CNAME') return { ...base, domain: value };
  return { ...base, address: value };
}

export async function startDns(): Promise<TestDns> {
  const zone = new Map<string, Map<RecordType, string[]>>();
  const dns: TestDns = {
    hostPort: '',
    failing: false,
    set(name, type, values) {
      const records = zone.get(name) ?? new Map<RecordType, string[]>();
      records.set(type, values);
      zone.set(name, records);
    },
    reset() {
      zone.clear();
      dns.failing = false;
    },
    close: () => server.close(),
  };
  const server = dns2.createServer({
    udp: true,
    handle(request, send) {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const records = question && zone.get(question.name.toLowerCase());
      if (dns.failing) response.header.rcode = Packet.RCODE.SERVFAIL;
      else if (!records || [...records.values()].every((v) => v.length === 0)) {
        response.header.rcode = Packet.RCODE.NXDOMAIN;
      } else {
        const type = (Object.keys(Packet.TYPE) as RecordType[]).find((t) => Packet.TYPE[t] === question.type);
        for (const value of (type && records.get(type)) ?? []) {
          response.answers.push(answer(question.name, type as RecordType, value) as never);
        }
      }
      send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  dns.hostPort = `127.0.0.1:${addresses.udp?.port}`;
  return dns;
}
