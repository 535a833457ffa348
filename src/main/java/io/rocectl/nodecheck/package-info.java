/**
 * {@code rocectl node-check} below the CLI: the endpoints file that {@code run} and {@code remediate}
 * write on every host ({@link io.rocectl.nodecheck.EndpointsFile}, {@link io.rocectl.nodecheck.EndpointsPush}),
 * the peers a node probes ({@link io.rocectl.nodecheck.PeerSample}), what the local probe says about
 * the node's NICs ({@link io.rocectl.nodecheck.LocalProbe}) and the one-line verdict in NHC's and
 * NPD's contracts ({@link io.rocectl.nodecheck.NodeReport}). See docs/slurm.md.
 */
package io.rocectl.nodecheck;
