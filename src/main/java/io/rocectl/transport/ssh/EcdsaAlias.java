package io.rocectl.transport.ssh;

import java.security.InvalidKeyException;
import java.security.Key;
import java.security.KeyFactory;
import java.security.KeyFactorySpi;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Security;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.KeySpec;

/**
 * sshj asks the JCA for an "ECDSA" KeyFactory (BouncyCastle's name); the JDK calls it "EC".
 * Registering BouncyCastle costs 0.7-1.4 s per start here, so instead this tiny provider maps
 * the name onto the JDK's own EC key factory. Without it, ECDSA host keys fail with
 * "ECDSA KeyFactory not available".
 */
final class EcdsaAlias {
    private EcdsaAlias() {}

    /**
     * Adds the alias once, after every provider installed (so one that has its own "ECDSA", such
     * as BouncyCastle, still comes first). No look-up first: asking the JCA for a name nobody
     * offers walks every provider's services, tens of milliseconds at start-up.
     */
    static synchronized void install() {
        if (Security.getProvider(AliasProvider.NAME) == null) Security.addProvider(new AliasProvider());
    }

    /** The provider: one service, KeyFactory.ECDSA. */
    static final class AliasProvider extends Provider {
        private static final long serialVersionUID = 1L;

        static final String NAME = "RocectlEcdsaAlias";

        AliasProvider() {
            super(NAME, "1.0", "KeyFactory.ECDSA backed by the JDK's EC key factory");
            put("KeyFactory.ECDSA", Spi.class.getName());
        }
    }

    /** Delegates every call to {@code KeyFactory.getInstance("EC")}. */
    public static final class Spi extends KeyFactorySpi {
        private final KeyFactory ec;

        public Spi() throws NoSuchAlgorithmException {
            ec = KeyFactory.getInstance("EC");
        }

        @Override
        protected PublicKey engineGeneratePublic(KeySpec spec) throws InvalidKeySpecException {
            return ec.generatePublic(spec);
        }

        @Override
        protected PrivateKey engineGeneratePrivate(KeySpec spec) throws InvalidKeySpecException {
            return ec.generatePrivate(spec);
        }

        @Override
        protected <T extends KeySpec> T engineGetKeySpec(Key key, Class<T> spec) throws InvalidKeySpecException {
            return ec.getKeySpec(key, spec);
        }

        @Override
        protected Key engineTranslateKey(Key key) throws InvalidKeyException {
            return ec.translateKey(key);
        }
    }
}
