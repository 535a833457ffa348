import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Enumeration;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * Build step, run by the pom after the shade step as a single-file program with ASM on its class
 * path: rewrites the class files older than version 50 (Java 6) in a jar, in place, as version 50
 * with stack map frames computed by ASM, and prints how many.
 *
 * <p>Why: class-data sharing archives no class file older than version 50, nor one that the JVM
 * verified by type inference. picocli and Jinjava's expression language ship Java 5 class files
 * (about 400), so they were read from the jar and verified again at every start, most of them
 * before the first host is contacted: about 0.1 s of every command's start-up on a 2-core machine.
 * With frames, the JVM verifies them by type checking and the launcher's archive holds them.
 *
 * <p>Safe by construction: only the version, the frames and the maximum stack and locals are
 * computed anew; the code, constants and attributes are ASM's faithful copy. Version 50 is chosen on
 * purpose: should a computed frame ever be refused, the JVM falls back to verifying that class by
 * type inference, as it did before (for version 50 only). A class with JSR/RET (which ASM cannot
 * give frames) fails the build instead of being left behind.
 *
 * <p>Usage: {@code java -cp asm.jar src/build/ClassFileVersion.java JAR}
 */
public final class ClassFileVersion {
    private static final int TO = Opcodes.V1_6;

    private ClassFileVersion() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: java -cp asm.jar ClassFileVersion.java JAR");
            System.exit(2);
        }
        Path jar = Path.of(args[0]);
        Path tmp = jar.resolveSibling(jar.getFileName() + ".frames.tmp");
        int rewritten = 0;
        // the jar's own classes, for ASM's common-superclass questions (loaded, never initialised)
        try (URLClassLoader types = new URLClassLoader(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
             ZipFile in = new ZipFile(jar.toFile()); OutputStream os = Files.newOutputStream(tmp);
             ZipOutputStream out = new ZipOutputStream(os)) {
            Enumeration<? extends ZipEntry> entries = in.entries();
            while (entries.hasMoreElements()) {
                ZipEntry e = entries.nextElement();
                byte[] b;
                try (InputStream is = in.getInputStream(e)) {
                    b = is.readAllBytes();
                }
                int v = e.getName().endsWith(".class") ? version(b) : -1;
                if (v > 0 && v < TO) {
                    b = withFrames(b, types);
                    rewritten++;
                }
                ZipEntry o = new ZipEntry(e.getName());
                o.setTime(e.getTime());
                if (e.getExtra() != null) o.setExtra(e.getExtra());
                if (e.getComment() != null) o.setComment(e.getComment());
                out.putNextEntry(o);
                out.write(b);
                out.closeEntry();
            }
        } catch (IOException | RuntimeException ex) {
            Files.deleteIfExists(tmp);
            throw ex;
        }
        Files.move(tmp, jar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        System.out.println("ClassFileVersion: " + rewritten + " class file(s) older than version " + TO
                + " rewritten as version " + TO + " with stack map frames in " + jar);
    }

    /** The class file's major version, or -1 when it is not a class file. */
    static int version(byte[] b) {
        if (b.length < 8 || (b[0] & 0xff) != 0xCA || (b[1] & 0xff) != 0xFE || (b[2] & 0xff) != 0xBA || (b[3] & 0xff) != 0xBE) return -1;
        return ((b[6] & 0xff) << 8) | (b[7] & 0xff);
    }

    static byte[] withFrames(byte[] b, ClassLoader types) {
        ClassWriter w = new ClassWriter(ClassWriter.COMPUTE_FRAMES) {
            @Override
            protected ClassLoader getClassLoader() {
                return types;
            }
        };
        new ClassReader(b).accept(new ClassVisitor(Opcodes.ASM9, w) {
            @Override
            public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
                super.visit(TO, access, name, signature, superName, interfaces);
            }
        }, ClassReader.SKIP_FRAMES);
        return w.toByteArray();
    }
}
