// Minimal NFSv3/UDP workload for samples/record.sh, using YANFS (libyanfs-java).
// Usage: java -cp yanfs.jar:. YanfsDriver EXPORT_URL READ_NAME LOCAL_FILE WRITE_NAME
// EXPORT_URL form: nfs://HOST:2049v3um/export  (v3 = NFSv3, u = UDP, m = use MOUNT).
// Files are opened relative to the export directory: YANFS MOUNTs the whole
// path of a URL, and ganesha refuses to MOUNT a file path (MNT3ERR_ACCES).
import com.sun.xfile.XFile;
import com.sun.xfile.XFileInputStream;
import com.sun.xfile.XFileOutputStream;
import java.io.FileInputStream;
import java.io.InputStream;
import java.io.OutputStream;

public class YanfsDriver {
    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: YanfsDriver EXPORT_URL READ_NAME LOCAL_FILE WRITE_NAME");
            System.exit(2);
        }
        byte[] buf = new byte[32768];
        long total = 0;

        // Read a file over NFSv3/UDP (LOOKUPs, GETATTR, 32 KiB READs).
        XFile dir = new XFile(args[0]);
        // Binding the export directory first MOUNTs it; later files are
        // LOOKUPs below that mount.
        String[] names = dir.list();
        System.out.println("export entries=" + (names == null ? -1 : names.length));
        XFile src = new XFile(dir, args[1]);
        System.out.println("read " + src + " length=" + src.length());
        try (InputStream in = new XFileInputStream(src)) {
            int n;
            while ((n = in.read(buf)) > 0) total += n;
        }
        System.out.println("read bytes=" + total);

        // Write a local file to the server (CREATE, 32 KiB WRITEs, COMMIT).
        total = 0;
        XFile dst = new XFile(dir, args[3]);
        try (InputStream in = new FileInputStream(args[2]);
             OutputStream out = new XFileOutputStream(dst)) {
            int n;
            while ((n = in.read(buf)) > 0) { out.write(buf, 0, n); total += n; }
        }
        System.out.println("wrote bytes=" + total + " length=" + new XFile(dir, args[3]).length());

        // A lookup of a missing file (NFS3ERR_NOENT).
        System.out.println("missing exists=" + new XFile(dir, args[3] + ".missing").exists());
    }
}
