import { catalogue, type ErrorId } from '../../../core/errors';
import { exampleError } from './errorExamples';

describe('exampleError', () => {
  it.each(Object.keys(catalogue) as ErrorId[])('%s: its status and code, a message with every placeholder filled', (id) => {
    const error = exampleError(id);
    expect(error).toMatchObject({ id, status: catalogue[id].status, code: catalogue[id].code });
    expect(error.message).not.toMatch(/%\w+%/);
  });
});
