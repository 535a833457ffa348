package io.rocectl.transport.ssh;

import com.hierynomus.sshj.transport.cipher.BlockCiphers;
import com.hierynomus.sshj.transport.cipher.GcmCiphers;
import com.hierynomus.sshj.transport.kex.DHGroups;
import com.hierynomus.sshj.transport.kex.ExtInfoClientFactory;
import com.hierynomus.sshj.transport.mac.Macs;
import net.schmizz.sshj.DefaultConfig;
import net.schmizz.sshj.common.Factory;
import net.schmizz.sshj.transport.cipher.Cipher;
import net.schmizz.sshj.transport.kex.KeyExchange;
import net.schmizz.sshj.transport.mac.MAC;
import net.schmizz.sshj.transport.kex.Curve25519SHA256;
import net.schmizz.sshj.transport.kex.DHGexSHA256;
import net.schmizz.sshj.transport.kex.ECDHNistP;

import java.util.List;

/**
 * The SSH client's algorithm offer: OpenSSH's client defaults (9.x, {@code ssh -G}) in OpenSSH's
 * order, minus what sshj lacks without BouncyCastle (sntrup761x25519, chacha20-poly1305, umac),
 * with AES-GCM first among the ciphers. sshj's own defaults offer more, and weaker:
 * diffie-hellman-group1/group14-sha1 and group-exchange-sha1, CBC, arcfour, 3DES, Blowfish and
 * others, and hmac-sha1 (which OpenSSH then picked) before the SHA-2 MACs; and building them
 * starts, and for most fails, 33 ciphers one by one at every start (0.15-0.25 s of CPU at start-up).
 *
 * <p>What this negotiates with OpenSSH: curve25519-sha256, aes128-gcm@openssh.com (an AEAD: no
 * separate MAC). The host key and user signature algorithms are sshj's, unchanged (ed25519 first,
 * then ECDSA and RSA), and so are host key checks (see {@link KnownHostsVerifier}).
 */
final class SshAlgorithms extends DefaultConfig {

    @Override
    protected void initKeyExchangeFactories() {
        setKeyExchangeFactories(List.<Factory.Named<KeyExchange>>of(
                new Curve25519SHA256.Factory(),
                new Curve25519SHA256.FactoryLibSsh(),
                new ECDHNistP.Factory256(),
                new ECDHNistP.Factory384(),
                new ECDHNistP.Factory521(),
                new DHGexSHA256.Factory(),
                DHGroups.Group16SHA512(),
                DHGroups.Group18SHA512(),
                DHGroups.Group14SHA256(),
                new ExtInfoClientFactory()));
    }

    /** AES only (the JDK has it everywhere); no trial start of each cipher, unlike sshj's default. */
    @Override
    protected void initCipherFactories() {
        setCipherFactories(List.<Factory.Named<Cipher>>of(
                GcmCiphers.AES128GCM(),
                GcmCiphers.AES256GCM(),
                BlockCiphers.AES128CTR(),
                BlockCiphers.AES192CTR(),
                BlockCiphers.AES256CTR()));
    }

    /** Encrypt-then-MAC first, SHA-2 before SHA-1, as OpenSSH orders them (used with the CTR ciphers only). */
    @Override
    protected void initMACFactories() {
        setMACFactories(List.<Factory.Named<MAC>>of(
                Macs.HMACSHA2256Etm(),
                Macs.HMACSHA2512Etm(),
                Macs.HMACSHA1Etm(),
                Macs.HMACSHA2256(),
                Macs.HMACSHA2512(),
                Macs.HMACSHA1()));
    }
}
