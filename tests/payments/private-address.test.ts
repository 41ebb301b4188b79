// Which payment addresses are on this machine or a private network (lib/payments/private-address.ts):
// every range the payment page holds back until the person allows it, in the spellings URL accepts.
import { describe, expect, it } from 'vitest';
import { isPrivateHost, isPrivateUrl } from '../../lib/payments/private-address';

describe('isPrivateUrl', () => {
  it.each([
    'http://127.0.0.1:8080/pay',
    'http://127.255.255.254/',
    'http://127.1/', // URL reads it as 127.0.0.1
    'http://0x7f.1/',
    'http://2130706433/',
    'http://0.0.0.0:9/',
    'http://10.0.0.1/',
    'http://10.255.255.255/',
    'http://172.16.0.1/',
    'http://172.31.255.255/',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://100.127.255.254/',
    'http://[64:ff9b::7f00:1]/', // NAT64 of 127.0.0.1
    'http://[64:ff9b::192.168.0.1]/',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]:3000/',
    'http://[::]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:10.1.2.3]/',
    'http://[fc00::1]/',
    'http://[fdff:ffff::1]/',
    'http://[fe80::1]/',
    'http://[febf::1]/',
    'http://localhost/',
    'http://LOCALHOST:9/',
    'http://localhost./',
    'http://shop.localhost/',
    'https://a.b.localhost/',
  ])('%s is private', (url) => {
    expect(isPrivateUrl(url)).toBe(true);
  });

  it.each([
    'https://shop.example/pay',
    'http://8.8.8.8/',
    'http://11.0.0.1/',
    'http://172.15.255.255/',
    'http://172.32.0.1/',
    'http://192.169.0.1/',
    'http://169.253.0.1/',
    'http://128.0.0.1/',
    'http://100.63.255.255/',
    'http://100.128.0.1/',
    'http://[64:ff9b::808:808]/', // NAT64 of 8.8.8.8
    'http://[2001:db8::1]/',
    'http://[::ffff:8.8.8.8]/',
    'http://[fec0::1]/',
    'http://[fb00::1]/',
    'https://localhost.example/',
    'https://notlocalhost/',
    'https://127.0.0.1.example.com/',
  ])('%s is not', (url) => {
    expect(isPrivateUrl(url)).toBe(false);
  });

  it('counts an address it cannot read as private (refuse, do not guess)', () => {
    expect(isPrivateUrl('not a url')).toBe(true);
    expect(isPrivateHost('[zz::1]')).toBe(true);
  });
});
