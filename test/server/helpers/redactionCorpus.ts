import { base62Crc32 } from '../../../src/server/recording/redaction/checksums';

// One entry per built-in rule: values it must find (`value` is what must disappear; `text` the
// context it travels in) and near-misses that must stay as they are (a wrong checksum, a
// look-alike). Shared by the corpus test, the linear-time test and the end-to-end proof.

export interface CorpusEntry {
  positives: { text: string; value: string }[];
  nearMisses: string[];
  /** Found only as the value of a JSON key (key rules). */
  byKey?: string;
}

const RANDOM30 = 'Xq7Lm2Np9Rt4Vw8Yz3Ab6Cd1Ef5Gh0';
const githubToken = (prefix: string, random = RANDOM30) => `${prefix}_${random}${base62Crc32(random)}`;
/** The same token with its last checksum digit changed: not a token GitHub issued. */
const wrongChecksum = (token: string) => token.slice(0, -1) + (token.endsWith('0') ? '1' : '0');

const same = (value: string) => ({ text: value, value });
const alnum = (n: number, seed = 'k9Q2w7E4r1T6y3U8i5O0pAsDfGhJkLzXcVbNm') =>
  seed.repeat(Math.ceil(n / seed.length)).slice(0, n);

export const CORPUS: Record<string, CorpusEntry> = {
  'aws-access-token': {
    positives: [{ text: 'aws_access_key_id = AKIAZ2X7QWERTYZ23456 ok', value: 'AKIAZ2X7QWERTYZ23456' }],
    nearMisses: ['AKIAIOSFODNN7EXAMPLE', 'AKIAZ2X7QWERTYZ23451', 'AKIA1234'],
  },
  'github-pat': {
    positives: [{ text: `token ${githubToken('ghp')} used`, value: githubToken('ghp') }],
    nearMisses: [wrongChecksum(githubToken('ghp')), 'ghp_tooShort123'],
  },
  'github-oauth': { positives: [same(githubToken('gho'))], nearMisses: [wrongChecksum(githubToken('gho'))] },
  'github-app-token': { positives: [same(githubToken('ghs'))], nearMisses: [wrongChecksum(githubToken('ghu'))] },
  'github-refresh-token': { positives: [same(githubToken('ghr'))], nearMisses: [wrongChecksum(githubToken('ghr'))] },
  'github-fine-grained-pat': {
    positives: [same(`github_pat_${alnum(82)}`)],
    nearMisses: [`github_pat_${alnum(60)} rest`],
  },
  'gitlab-pat-routable': {
    positives: [same('glpat-abcdefghijklmnopqrstuvwxyz1.01abcdefg')],
    nearMisses: ['glpat-abcdefghijklmnopqrstuvwxyz1.0'],
  },
  'gitlab-pat': { positives: [same('glpat-Ab3dEf6hIj9kLm2nOp5q')], nearMisses: ['glpat-Ab3dE'] },
  'gitlab-ptt': {
    positives: [same(`glptt-0123456789abcdef0123456789abcdef01234567`)],
    nearMisses: ['glptt-0123456789abcdef0123456789abcdef0123456g'],
  },
  'gitlab-deploy-token': { positives: [same('gldt-Ab3dEf6hIj9kLm2nOp5q')], nearMisses: ['gldt-Ab3d'] },
  'slack-bot-token': {
    positives: [same('xoxb-1234567890-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx')],
    nearMisses: ['xoxb-123-456'],
  },
  'slack-user-token': {
    positives: [same(`xoxp-1234567890-1234567890-1234567890-${alnum(32)}`)],
    nearMisses: ['xoxp-1234567890-1234567890-abc'],
  },
  'slack-app-token': {
    positives: [same('xapp-1-A0123ABCDEF-1234567890123-abcdef0123456789')],
    nearMisses: ['xapp-x-A0123ABCDEF'],
  },
  'slack-legacy-token': { positives: [same('xoxs-1234-5678-9012-abcdef12')], nearMisses: ['xoxs-1234-5678-abcdef'] },
  'slack-webhook-url': {
    positives: [same('https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX')],
    nearMisses: ['https://hooks.slack.com/services/T0000/B0000/XX'],
  },
  'stripe-access-token': {
    positives: [{ text: 'key sk_live_4eC39HqLyjWDarjtT1zdp7dc, then', value: 'sk_live_4eC39HqLyjWDarjtT1zdp7dc' }],
    nearMisses: ['sk_live_abc', 'sk_demo_4eC39HqLyjWDarjtT1zdp7dc'],
  },
  'openai-api-key': {
    positives: [same(`sk-${alnum(20)}T3BlbkFJ${alnum(20, 'Zz9Yy8Xx7Ww6Vv5Uu4Tt3')}`)],
    nearMisses: ['sk-proj-abcT3BlbkFJxyz'],
  },
  'anthropic-admin-api-key': {
    positives: [same(`sk-ant-admin01-${alnum(93)}AA`)],
    nearMisses: [`sk-ant-admin01-${alnum(93)}AB`],
  },
  'anthropic-api-key': {
    positives: [same(`sk-ant-api03-${alnum(93)}AA`)],
    nearMisses: [`sk-ant-api03-${alnum(93)}AB`],
  },
  'gcp-api-key': {
    positives: [same('AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY')],
    nearMisses: ['AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFM'],
  },
  'npm-access-token': {
    positives: [same(githubToken('npm'))],
    nearMisses: [wrongChecksum(githubToken('npm'))],
  },
  jwt: {
    positives: [
      same(
        'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
      ),
    ],
    nearMisses: ['eyJhbGci.eyJzdWIi', 'they key eyes'],
  },
  'private-key': {
    positives: [
      same(`-----BEGIN RSA PRIVATE KEY-----\nMIIEow${alnum(120)}\n${alnum(64)}==\n-----END RSA PRIVATE KEY-----`),
    ],
    nearMisses: [
      `-----BEGIN RSA PRIVATE KEY-----\nMIIEow${alnum(120)}`,
      '-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----',
    ],
  },
  'password-assignment': {
    positives: [
      { text: 'login with password=hunter2xyz now', value: 'hunter2xyz' },
      { text: 'API_KEY: "q8Vf3Lz1Xc7Np2Rt"', value: 'q8Vf3Lz1Xc7Np2Rt' },
    ],
    nearMisses: ['reset the password field', 'the secret garden'],
  },
  'connection-string-password': {
    positives: [{ text: 'postgres://admin:S3cretPassw0rd@db.internal:5432/app', value: 'S3cretPassw0rd' }],
    nearMisses: ['https://example.com:8443/path', 'mailto:someone'],
  },
  'bearer-token': {
    positives: [{ text: 'Authorization: Bearer abcdef0123456789ABCDEF.xyz', value: 'abcdef0123456789ABCDEF.xyz' }],
    nearMisses: ['Bearer short', 'a bearer of news'],
  },
  'password-field': {
    positives: [{ text: '{"dbPassword":"hunter2"}', value: 'hunter2' }],
    nearMisses: ['{"passwordHint":"the pet name"}', '{"bypass":"yes please"}'],
    byKey: 'dbPassword',
  },
  'secret-key-value': {
    positives: [{ text: '{"client_secret":"q8Vf3Lz1Xc7Np2Rt"}', value: 'q8Vf3Lz1Xc7Np2Rt' }],
    nearMisses: [
      '{"token_type":"Bearer"}',
      '{"authorName":"Jane Austen Smithers"}',
      '{"token_count":"aaaaaaaaaaaaaaaa"}',
    ],
    byKey: 'client_secret',
  },
  'email-address': {
    positives: [{ text: 'write to jane.doe@example.com today', value: 'jane.doe@example.com' }],
    nearMisses: ['jane.doe@localhost', 'follow @handle'],
  },
  'phone-number': {
    positives: [
      { text: 'call +44 20 7946 0958 now', value: '+44 20 7946 0958' },
      { text: 'or (555) 123-4567.', value: '(555) 123-4567' },
    ],
    nearMisses: ['+12 345', 'on 2024-01-15', 'id 1700000000123'],
  },
  'card-number': {
    positives: [{ text: 'card 4111 1111 1111 1111 exp 2031', value: '4111 1111 1111 1111' }, same('5500005555555559')],
    nearMisses: ['4111 1111 1111 1112', '1234567890123'],
  },
  iban: {
    positives: [
      { text: 'pay DE89 3704 0044 0532 0130 00 EUR', value: 'DE89 3704 0044 0532 0130 00' },
      same('GB82WEST12345698765432'),
    ],
    nearMisses: ['DE89 3704 0044 0532 0130 01', 'GB82WEST12345698765433'],
  },
  'ipv4-address': {
    positives: [{ text: 'from 192.168.10.42.', value: '192.168.10.42' }],
    nearMisses: ['999.1.1.1', 'version 1.2.3', '1.2.3.4.5'],
  },
  'ipv6-address': {
    positives: [{ text: 'peer 2001:db8::8a2e:370:7334 said', value: '2001:db8::8a2e:370:7334' }],
    nearMisses: ['std::vector', 'at 12:30:45', 'dead::beef'],
  },
};
