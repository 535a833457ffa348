/**
 * Pure plans: parsed facts plus arguments in, commands (or "nothing to do, because ...") out.
 * Nothing here talks to a host; every class is tested table-driven from fixture files.
 */
package io.rocectl.op;
