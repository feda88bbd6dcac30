/*
 * The floor of the tracer benchmark: a CUDA injection library (CUDA_INJECTION64_PATH) that enables the
 * activity kinds and API filter the tracer enables, hands CUPTI recycled buffers, and only counts records.
 * What it costs is what CUPTI itself costs for those records.
 *
 *   gcc -O2 -shared -fPIC -I<cupti include> -I<cuda include> -o libcount_records.so \
 *       benches/c/count_records.c -ldl -lpthread
 *
 * It links no libcupti: the CUPTI functions are resolved from the copy the process already loaded
 * (PyTorch loads one; two copies in a process each think they own the driver's callbacks), else from
 * $COUNT_RECORDS_CUPTI, else by soname.
 *
 * Settings (environment):
 *   COUNT_RECORDS_OUT    where to write the counts as JSON at exit (default: stderr only)
 *   COUNT_RECORDS_API    timeline (default: the tracer's default filter) or all
 *   COUNT_RECORDS_KINDS  comma-separated activity kind numbers (default: the tracer's timeline kinds
 *                        10,1,2,5,4,39: concurrent kernel, memcpy, memset, runtime, driver, external
 *                        correlation)
 *   COUNT_RECORDS_BUFFER buffer size in bytes (default 4 MiB, as the tracer)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cupti.h>

typedef CUptiResult (*register_fn)(CUpti_BuffersCallbackRequestFunc, CUpti_BuffersCallbackCompleteFunc);
typedef CUptiResult (*kind_fn)(CUpti_ActivityKind);
typedef CUptiResult (*api_fn)(CUpti_CallbackId, uint8_t);
typedef CUptiResult (*next_fn)(uint8_t *, size_t, CUpti_Activity **);
typedef CUptiResult (*flush_fn)(uint32_t);
typedef CUptiResult (*dropped_fn)(CUcontext, uint32_t, size_t *);
typedef CUptiResult (*thread_fn)(CUpti_ActivityThreadIdType);
typedef CUptiResult (*version_fn)(uint32_t *);

static struct {
    register_fn register_callbacks;
    kind_fn enable, disable;
    api_fn runtime_api, driver_api;
    next_fn next_record;
    flush_fn flush_all;
    dropped_fn dropped;
    thread_fn thread_id_type;
    version_fn version;
} cupti;

#define KINDS 64
static _Atomic uint64_t counts[KINDS];
static _Atomic uint64_t other_kinds, buffers_completed, buffers_requested, buffers_allocated, declined;
static size_t buffer_size = 4 << 20;
static int enabled[KINDS];

/* A recycled pool: completed buffers go back on a free list for the next request. */
#define POOL 256
static void *free_list[POOL];
static int free_count;
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;

static void CUPTIAPI requested(uint8_t **buffer, size_t *size, size_t *max_records) {
    void *b = NULL;
    atomic_fetch_add(&buffers_requested, 1);
    pthread_mutex_lock(&pool_lock);
    if (free_count > 0) b = free_list[--free_count];
    pthread_mutex_unlock(&pool_lock);
    if (b == NULL) {
        if (posix_memalign(&b, 8, buffer_size) != 0) b = NULL;
        if (b != NULL) atomic_fetch_add(&buffers_allocated, 1);
    }
    if (b == NULL) atomic_fetch_add(&declined, 1);
    *buffer = b;
    *size = b ? buffer_size : 0;
    *max_records = 0;
}

static void CUPTIAPI completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size, size_t valid) {
    (void)ctx;
    (void)stream;
    (void)size;
    CUpti_Activity *record = NULL;
    while (valid > 0 && cupti.next_record(buffer, valid, &record) == CUPTI_SUCCESS) {
        unsigned kind = (unsigned)record->kind;
        if (kind < KINDS)
            atomic_fetch_add_explicit(&counts[kind], 1, memory_order_relaxed);
        else
            atomic_fetch_add_explicit(&other_kinds, 1, memory_order_relaxed);
    }
    atomic_fetch_add(&buffers_completed, 1);
    pthread_mutex_lock(&pool_lock);
    if (free_count < POOL) {
        free_list[free_count++] = buffer;
        buffer = NULL;
    }
    pthread_mutex_unlock(&pool_lock);
    free(buffer);
}

/* What the tracer's default filter (cupti::activity::ApiFilter::timeline) leaves out: Kineto's lists. */
static const CUpti_CallbackId runtime_left_out[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020,        CUPTI_RUNTIME_TRACE_CBID_cudaSetDevice_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020,     CUPTI_RUNTIME_TRACE_CBID_cudaEventCreate_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaEventCreateWithFlags_v3020, CUPTI_RUNTIME_TRACE_CBID_cudaEventDestroy_v3020,
};
static const CUpti_CallbackId driver_kept[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
    CUPTI_DRIVER_TRACE_CBID_cuMemCreate,
    CUPTI_DRIVER_TRACE_CBID_cuMemMap,
    CUPTI_DRIVER_TRACE_CBID_cuMemUnmap,
    CUPTI_DRIVER_TRACE_CBID_cuMemRelease,
    CUPTI_DRIVER_TRACE_CBID_cuMemExportToShareableHandle,
    CUPTI_DRIVER_TRACE_CBID_cuMemImportFromShareableHandle,
};

static int timeline_filter = 1;

static void *resolve(void *lib, const char *name) {
    void *f = dlsym(lib, name);
    if (f == NULL) fprintf(stderr, "[count_records] %s missing\n", name);
    return f;
}

static void *open_cupti(void) {
    const char *sonames[] = {"libcupti.so.13", "libcupti.so.12", "libcupti.so"};
    for (int i = 0; i < 3; i++) {
        void *lib = dlopen(sonames[i], RTLD_NOW | RTLD_NOLOAD);
        if (lib) return lib;
    }
    const char *path = getenv("COUNT_RECORDS_CUPTI");
    if (path && *path) {
        void *lib = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
        if (lib) return lib;
    }
    for (int i = 0; i < 3; i++) {
        void *lib = dlopen(sonames[i], RTLD_NOW | RTLD_GLOBAL);
        if (lib) return lib;
    }
    return NULL;
}

static void report(void) {
    size_t dropped = 0;
    cupti.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    cupti.dropped(NULL, 0, &dropped);
    const char *out = getenv("COUNT_RECORDS_OUT");
    FILE *f = out && *out ? fopen(out, "w") : NULL;
    uint64_t total = atomic_load(&other_kinds);
    for (int k = 0; k < KINDS; k++) total += atomic_load(&counts[k]);
    FILE *to[2] = {stderr, f};
    for (int i = 0; i < 2; i++) {
        if (!to[i]) continue;
        fprintf(to[i], "{\"records\": %llu, \"dropped\": %zu, \"buffers_completed\": %llu, \"buffers_allocated\": %llu, "
                       "\"buffers_declined\": %llu, \"filter\": \"%s\", \"by_kind\": {",
                (unsigned long long)total, dropped, (unsigned long long)atomic_load(&buffers_completed),
                (unsigned long long)atomic_load(&buffers_allocated), (unsigned long long)atomic_load(&declined),
                timeline_filter ? "timeline" : "all");
        int first = 1;
        for (int k = 0; k < KINDS; k++) {
            uint64_t n = atomic_load(&counts[k]);
            if (!n) continue;
            fprintf(to[i], "%s\"%d\": %llu", first ? "" : ", ", k, (unsigned long long)n);
            first = 0;
        }
        fprintf(to[i], "}}\n");
    }
    if (f) fclose(f);
}

int InitializeInjection(void) {
    void *lib = open_cupti();
    if (lib == NULL) {
        fprintf(stderr, "[count_records] libcupti not found: %s\n", dlerror());
        return 1;
    }
    cupti.register_callbacks = (register_fn)resolve(lib, "cuptiActivityRegisterCallbacks");
    cupti.enable = (kind_fn)resolve(lib, "cuptiActivityEnable");
    cupti.disable = (kind_fn)resolve(lib, "cuptiActivityDisable");
    cupti.runtime_api = (api_fn)resolve(lib, "cuptiActivityEnableRuntimeApi");
    cupti.driver_api = (api_fn)resolve(lib, "cuptiActivityEnableDriverApi");
    cupti.next_record = (next_fn)resolve(lib, "cuptiActivityGetNextRecord");
    cupti.flush_all = (flush_fn)resolve(lib, "cuptiActivityFlushAll");
    cupti.dropped = (dropped_fn)resolve(lib, "cuptiActivityGetNumDroppedRecords");
    cupti.thread_id_type = (thread_fn)resolve(lib, "cuptiSetThreadIdType");
    cupti.version = (version_fn)resolve(lib, "cuptiGetVersion");
    if (!cupti.register_callbacks || !cupti.enable || !cupti.next_record || !cupti.flush_all || !cupti.dropped)
        return 1;

    const char *api = getenv("COUNT_RECORDS_API");
    timeline_filter = !(api && strcmp(api, "all") == 0);
    const char *size = getenv("COUNT_RECORDS_BUFFER");
    if (size && atol(size) >= 4096) buffer_size = (size_t)atol(size);
    const char *kinds = getenv("COUNT_RECORDS_KINDS");
    if (!kinds || !*kinds) kinds = "10,1,2,5,4,39";
    for (const char *p = kinds; *p;) {
        int k = atoi(p);
        if (k > 0 && k < KINDS) enabled[k] = 1;
        while (*p && *p != ',') p++;
        if (*p == ',') p++;
    }

    if (cupti.thread_id_type) cupti.thread_id_type(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM);
    if (cupti.register_callbacks(requested, completed) != CUPTI_SUCCESS) {
        fprintf(stderr, "[count_records] cuptiActivityRegisterCallbacks failed\n");
        return 1;
    }
    for (int k = 1; k < KINDS; k++) {
        if (!enabled[k]) continue;
        CUptiResult r = cupti.enable((CUpti_ActivityKind)k);
        if (r != CUPTI_SUCCESS) fprintf(stderr, "[count_records] enabling kind %d: %d\n", k, (int)r);
    }
    if (timeline_filter && cupti.runtime_api && cupti.driver_api) {
        /* As the tracer applies ApiFilter::timeline through the V1 API: the kind enabled, then the
         * runtime ids Kineto leaves out disabled, and every driver id but those it keeps. */
        if (enabled[CUPTI_ACTIVITY_KIND_RUNTIME])
            for (size_t i = 0; i < sizeof runtime_left_out / sizeof *runtime_left_out; i++)
                cupti.runtime_api(runtime_left_out[i], 0);
        if (enabled[CUPTI_ACTIVITY_KIND_DRIVER]) {
            for (CUpti_CallbackId id = 1; id < CUPTI_DRIVER_TRACE_CBID_SIZE; id++) {
                int keep = 0;
                for (size_t i = 0; i < sizeof driver_kept / sizeof *driver_kept; i++) keep |= driver_kept[i] == id;
                if (!keep) cupti.driver_api(id, 0);
            }
        }
    }
    atexit(report);
    return 1;
}
