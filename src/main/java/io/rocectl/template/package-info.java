/**
 * Jinja templating and conditions (the only package importing Jinjava).
 */
package io.rocectl.template;
