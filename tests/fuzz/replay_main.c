/* Replays fuzz inputs through a fuzz target without libFuzzer, so the
 * regression inputs (and the seeds) run in every build's ctest.
 * Usage: replay_TARGET FILE_OR_DIR... ; exit 0 if every input ran. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); return 1; }
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    size_t r;
    while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap * 2);
            if (!nb) { free(buf); buf = NULL; break; }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (!buf) { fprintf(stderr, "%s: out of memory\n", path); return 1; }
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv)
{
    int bad = 0, runs = 0;
    for (int i = 1; i < argc; i++) {
        struct stat sb;
        if (stat(argv[i], &sb) != 0) continue; /* a missing corpus directory is empty */
        if (!S_ISDIR(sb.st_mode)) { bad |= run_file(argv[i]); runs++; continue; }
        DIR *d = opendir(argv[i]);
        if (!d) { perror(argv[i]); bad = 1; continue; }
        char **names = NULL;
        size_t nn = 0;
        struct dirent *e;
        while ((e = readdir(d))) {
            if (e->d_name[0] == '.') continue;
            char **nv = realloc(names, (nn + 1) * sizeof *nv);
            if (!nv) break;
            names = nv;
            size_t len = strlen(argv[i]) + strlen(e->d_name) + 2;
            names[nn] = malloc(len);
            if (!names[nn]) break;
            snprintf(names[nn++], len, "%s/%s", argv[i], e->d_name);
        }
        closedir(d);
        if (nn) qsort(names, nn, sizeof *names, cmp); /* qsort(NULL, 0) is undefined */
        for (size_t k = 0; k < nn; k++) {
            bad |= run_file(names[k]);
            runs++;
            free(names[k]);
        }
        free(names);
    }
    printf("%d inputs replayed\n", runs);
    return bad;
}
