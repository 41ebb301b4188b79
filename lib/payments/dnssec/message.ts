/**
 * DNS messages (RFC 1035 §4.1) as DNS over HTTPS carries them (RFC 8484, application/dns-message):
 * the query Hushdrop sends, with EDNS0 (RFC 6891) and its DO bit so the resolver includes DNSSEC
 * records (RFC 3225), and CD so it hands them over even when it would judge them bogus (RFC 4035
 * §3.2.2): Hushdrop judges them itself and never reads the AD bit.
 */
import {
  concat,
  DnsWireError,
  type Name,
  nameWire,
  type ResourceRecord,
  readRecord,
  recordWire,
  TYPE,
  u16,
  WireReader,
} from './wire';

export const FLAG = {
  QR: 0x8000,
  AA: 0x0400,
  TC: 0x0200,
  RD: 0x0100,
  RA: 0x0080,
  AD: 0x0020,
  CD: 0x0010,
} as const;

export const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 } as const;

/** RFC 3225: the DO bit, in the OPT record's TTL field. */
const DO_BIT = 0x8000;

export interface Question {
  name: Name;
  type: number;
  klass: number;
}

export interface DnsMessage {
  id: number;
  /** Header flags, opcode and RCODE as one 16-bit field (RFC 1035 §4.1.1). */
  flags: number;
  questions: Question[];
  answers: ResourceRecord[];
  authority: ResourceRecord[];
  additional: ResourceRecord[];
}

export const rcodeOf = (message: DnsMessage) => message.flags & 0x000f;

/** The DO bit of a message's OPT record, if it has one. */
export const dnssecOk = (message: DnsMessage) =>
  message.additional.some((rr) => rr.type === TYPE.OPT && (rr.ttl & DO_BIT) !== 0);

/** An OPT pseudo-record (RFC 6891 §6.1.2): payload size in the class, DO in the TTL. */
export const optRecord = (dnssec: boolean): ResourceRecord => ({
  owner: [],
  type: TYPE.OPT,
  klass: 4096,
  ttl: dnssec ? DO_BIT : 0,
  rdata: new Uint8Array(),
});

/** A message on the wire, names uncompressed. */
export function messageWire(message: DnsMessage): Uint8Array {
  return concat([
    u16(message.id),
    u16(message.flags),
    u16(message.questions.length),
    u16(message.answers.length),
    u16(message.authority.length),
    u16(message.additional.length),
    ...message.questions.flatMap((q) => [nameWire(q.name), u16(q.type), u16(q.klass)]),
    ...[...message.answers, ...message.authority, ...message.additional].map(recordWire),
  ]);
}

/** A message from the wire; names may be compressed. Throws DnsWireError. */
export function readMessage(bytes: Uint8Array): DnsMessage {
  const r = new WireReader(bytes, 0, true);
  const id = r.u16();
  const flags = r.u16();
  const counts = [r.u16(), r.u16(), r.u16(), r.u16()] as const;
  const questions: Question[] = [];
  for (let i = 0; i < counts[0]; i++) questions.push({ name: r.name(), type: r.u16(), klass: r.u16() });
  const section = (n: number) => Array.from({ length: n }, () => readRecord(r));
  const message = {
    id,
    flags,
    questions,
    answers: section(counts[1]),
    authority: section(counts[2]),
    additional: section(counts[3]),
  };
  if (!r.done) throw new DnsWireError('bytes after the last record');
  return message;
}

/**
 * The query for `type` at `name`: ID 0 (RFC 8484 §4.1, so answers can be cached), recursion
 * desired, checking disabled, DNSSEC OK.
 */
export function queryWire(name: Name, type: number): Uint8Array {
  return messageWire({
    id: 0,
    flags: FLAG.RD | FLAG.CD,
    questions: [{ name, type, klass: 1 }],
    answers: [],
    authority: [],
    additional: [optRecord(true)],
  });
}
