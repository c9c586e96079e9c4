import { describe, expect, it } from 'vitest';
import { detectCloudEndpoint } from './aws-host.js';

describe('detectCloudEndpoint', () => {
  it.each([
    ['search-movies-abc123.us-east-1.es.amazonaws.com', 'us-east-1', 'es'],
    ['https://search-movies-abc123.eu-west-3.es.amazonaws.com:443', 'eu-west-3', 'es'],
    ['vpc-logs-xyz.ap-southeast-2.es.amazonaws.com', 'ap-southeast-2', 'es'],
    ['search-d.us-gov-west-1.es.amazonaws.com', 'us-gov-west-1', 'es'],
    ['search-d.us-east-1.es-fips.amazonaws.com', 'us-east-1', 'es'],
    ['search-d.cn-north-1.es.amazonaws.com.cn', 'cn-north-1', 'es'],
    ['abc123def.us-east-1.aoss.amazonaws.com', 'us-east-1', 'aoss'],
    ['https://abc123def.eu-central-1.aoss-fips.amazonaws.com', 'eu-central-1', 'aoss'],
    ['ABC123.US-WEST-2.AOSS.AMAZONAWS.COM', 'us-west-2', 'aoss'],
  ])('%s → %s / %s', (host, region, service) => {
    expect(detectCloudEndpoint(host)).toEqual({ region, service });
  });

  it.each([
    'localhost:9200',
    'http://127.0.0.1:9250',
    'search.example.com',
    'search-domain.es.amazonaws.com',
    'bucket.s3.us-east-1.amazonaws.com',
    'us-east-1.es.amazonaws.com',
    '',
  ])('names no region for %s', (host) => {
    expect(detectCloudEndpoint(host)).toBeUndefined();
  });
});
