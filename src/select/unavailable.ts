/**
 * A method that cannot run on this machine (a program it runs is not installed): `tadpole
 * eval` reports such a method as unavailable and goes on with the others, where any other
 * error stops the eval.
 */
import { TadpoleError } from '../core/errors.js';

export class MethodUnavailableError extends TadpoleError {
  constructor(
    readonly method: string,
    message: string,
  ) {
    super('TADPOLE_RUN', message);
    this.name = 'MethodUnavailableError';
  }
}
