import { Components } from './components';
import { probePaths } from './probes';

describe('probePaths', () => {
  it('has the health probes, needing no token', () => {
    const paths = probePaths('off', new Components());
    expect(Object.keys(paths)).toEqual(['/healthz', '/readyz']);
    expect(Object.keys((paths['/readyz'].get as any).responses)).toEqual(['200', '503']);
    expect((paths['/healthz'].get as any).security).toEqual([]);
  });

  it('has GET /metrics in Prometheus text, for admins (401, 403) or anyone, as METRICS says', () => {
    const admin = probePaths('admin', new Components())['/metrics'].get as any;
    expect(Object.keys(admin.responses)).toEqual(['200', '401', '403']);
    expect(admin.security).toBeUndefined();
    expect(Object.keys(admin.responses['200'].content)).toEqual(['text/plain']);
    const open = probePaths('public', new Components())['/metrics'].get as any;
    expect(Object.keys(open.responses)).toEqual(['200']);
    expect(open.security).toEqual([]);
  });
});
