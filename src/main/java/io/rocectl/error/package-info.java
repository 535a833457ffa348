/**
 * User errors: {@link io.rocectl.error.InputError} (one line, {@code file:line:col: message}, exit 5) and did-you-mean suggestions.
 */
package io.rocectl.error;
