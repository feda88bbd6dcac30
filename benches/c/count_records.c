/*
 * The floor of the tracer benchmark: a CUDA injection library (CUDA_INJECTION64_PATH) that enables the
 * activity kinds and API filter a profiler enables, hands CUPTI buffers, and only counts records.
 * What it costs is what CUPTI itself costs for those records.
 *
 *   gcc -O2 -shared -fPIC -I<cupti include> -I<cuda include> -o libcount_records.so \
 *       benches/c/count_records.c -ldl -lpthread
 *
 * It links no libcupti: the CUPTI functions are resolved from the copy the process already loaded
 * (PyTorch loads one; two copies in a process each think they own the driver's callbacks), else from
 * $COUNT_RECORDS_CUPTI, else by soname.
 *
 * Two presets (COUNT_RECORDS_PRESET), each setting below overriding one part of it:
 *   ours    (default) what our tracer configures: kinds 10,1,2,5,4,39; the timeline API filter (the
 *           runtime calls Kineto's lists leave out disabled, every driver call but launches and the
 *           virtual-memory calls disabled); CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM; CUPTI's own clock;
 *           recycled 4 MiB buffers; enabled in InitializeInjection. That is the engine with its API
 *           filter inside CUPTI (ACCELPROF_CUDA_API_FILTER_AT=cupti); with its default (the filter
 *           applied while decoding) CUPTI leaves out Kineto's four ids only: COUNT_RECORDS_API=kineto.
 *   kineto  what Kineto (PyTorch 2.11, torch.profiler with CUDA activities) configures, as logged by
 *           benches/c/cupti_calls.c on an H200 and as its CuptiActivityApi.cpp reads: kinds
 *           1,2,10,39,5,4,17; runtime cbid 17 (cudaGetDevice) and driver cbids 686, 392, 304
 *           (cuKernelGetAttribute, cuDevicePrimaryCtxGetState, cuCtxGetCurrent) disabled, every other
 *           call recorded; the default thread ids; a timestamp callback reading the TSC (Kineto's
 *           getApproximateTime); a fresh 4 MiB buffer per request, freed once read; enabled only
 *           inside the program's window (count_records_window below), each window ended by disabling
 *           the kinds, cuptiActivityFlushAll(FORCED) and attribute 9 (per-thread buffers) set to 0.
 *
 * Settings (environment):
 *   COUNT_RECORDS_OUT       where to write the counts as JSON at exit (default: stderr only)
 *   COUNT_RECORDS_PRESET    ours or kineto (above)
 *   COUNT_RECORDS_KINDS     comma-separated activity kind numbers
 *   COUNT_RECORDS_API       timeline, kineto (the three driver ids and one runtime id) or all
 *   COUNT_RECORDS_THREAD_ID system or default
 *   COUNT_RECORDS_CLOCK     cupti (CUPTI's own) or tsc (a timestamp callback reading the TSC; x86-64)
 *   COUNT_RECORDS_RECYCLE   1: completed buffers are reused; 0: each request allocates, each completion frees
 *   COUNT_RECORDS_LAZY      1: nothing is enabled until count_records_window(1); 0: enabled at start
 *   COUNT_RECORDS_BUFFER    buffer size in bytes (default 4 MiB, as both)
 *
 * Exported for the benchmark's workloads (dlopen the same path, then call):
 *   int count_records_window(int on)   on: enable the kinds and the filter; off: disable them and
 *                                      flush (forced), so every record of the window is counted on return
 *   int count_records_counts(char *json, size_t len)   the counts so far, as the JSON written at exit
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#include <cupti.h>

typedef CUptiResult (*register_fn)(CUpti_BuffersCallbackRequestFunc, CUpti_BuffersCallbackCompleteFunc);
typedef CUptiResult (*kind_fn)(CUpti_ActivityKind);
typedef CUptiResult (*api_fn)(CUpti_CallbackId, uint8_t);
typedef CUptiResult (*next_fn)(uint8_t *, size_t, CUpti_Activity **);
typedef CUptiResult (*flush_fn)(uint32_t);
typedef CUptiResult (*dropped_fn)(CUcontext, uint32_t, size_t *);
typedef CUptiResult (*thread_fn)(CUpti_ActivityThreadIdType);
typedef CUptiResult (*timestamp_fn)(CUpti_TimestampCallbackFunc);
typedef CUptiResult (*attribute_fn)(CUpti_ActivityAttribute, size_t *, void *);

static struct {
    register_fn register_callbacks;
    kind_fn enable, disable;
    api_fn runtime_api, driver_api;
    next_fn next_record;
    flush_fn flush_all;
    dropped_fn dropped;
    thread_fn thread_id_type;
    timestamp_fn timestamp_callback;
    attribute_fn set_attribute;
} cupti;

#define KINDS 64
static _Atomic uint64_t counts[KINDS];
static _Atomic uint64_t other_kinds, buffers_completed, buffers_requested, buffers_allocated, declined;
static size_t buffer_size = 4 << 20;
static int enabled[KINDS];

/* The configuration (see the top of the file). */
enum api_filter { FILTER_ALL, FILTER_TIMELINE, FILTER_KINETO };
static struct {
    const char *preset;
    enum api_filter filter;
    int system_thread_ids, tsc_clock, recycle, lazy, kineto_flush;
} conf;
static int registered, windows, window_on;
int count_records_window(int on);
int count_records_counts(char *out, size_t len);
static pthread_mutex_t window_lock = PTHREAD_MUTEX_INITIALIZER;

/* A recycled pool: completed buffers go back on a free list for the next request. */
#define POOL 256
static void *free_list[POOL];
static int free_count;
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;

static void CUPTIAPI requested(uint8_t **buffer, size_t *size, size_t *max_records) {
    void *b = NULL;
    atomic_fetch_add(&buffers_requested, 1);
    if (conf.recycle) {
        pthread_mutex_lock(&pool_lock);
        if (free_count > 0) b = free_list[--free_count];
        pthread_mutex_unlock(&pool_lock);
    }
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
    if (conf.recycle) {
        pthread_mutex_lock(&pool_lock);
        if (free_count < POOL) {
            free_list[free_count++] = buffer;
            buffer = NULL;
        }
        pthread_mutex_unlock(&pool_lock);
    }
    free(buffer);
}

/* Kineto's clock: c10's approximate time, the TSC read without a fence. */
static uint64_t CUPTIAPI tsc_now(void) {
#if defined(__x86_64__)
    return __rdtsc();
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

/* What our tracer's default filter (cupti::activity::ApiFilter::timeline) leaves out: Kineto's lists. */
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
/* What Kineto disables (CuptiActivityApi::enableCuptiActivities, CUDA 12.5 and later). */
static const CUpti_CallbackId kineto_runtime_left_out[] = {CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020};
static const CUpti_CallbackId kineto_driver_left_out[] = {
    CUPTI_DRIVER_TRACE_CBID_cuKernelGetAttribute,
    CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxGetState,
    CUPTI_DRIVER_TRACE_CBID_cuCtxGetCurrent,
};

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

static const char *filter_name(void) {
    return conf.filter == FILTER_TIMELINE ? "timeline" : conf.filter == FILTER_KINETO ? "kineto" : "all";
}

/* The counts so far as JSON; the length written (snprintf's: truncated when it is >= len). */
static int render(char *out, size_t len, size_t dropped) {
    uint64_t total = atomic_load(&other_kinds);
    for (int k = 0; k < KINDS; k++) total += atomic_load(&counts[k]);
    int n = snprintf(out, len,
                     "{\"records\": %llu, \"dropped\": %zu, \"buffers_completed\": %llu, \"buffers_allocated\": %llu, "
                     "\"buffers_declined\": %llu, \"preset\": \"%s\", \"filter\": \"%s\", \"system_thread_ids\": %d, "
                     "\"tsc_clock\": %d, \"recycle\": %d, \"lazy\": %d, \"windows\": %d, \"by_kind\": {",
                     (unsigned long long)total, dropped, (unsigned long long)atomic_load(&buffers_completed),
                     (unsigned long long)atomic_load(&buffers_allocated), (unsigned long long)atomic_load(&declined),
                     conf.preset, filter_name(), conf.system_thread_ids, conf.tsc_clock, conf.recycle, conf.lazy,
                     windows);
    int first = 1;
    for (int k = 0; k < KINDS && n >= 0 && (size_t)n < len; k++) {
        uint64_t c = atomic_load(&counts[k]);
        if (!c) continue;
        n += snprintf(out + n, len - (size_t)n, "%s\"%d\": %llu", first ? "" : ", ", k, (unsigned long long)c);
        first = 0;
    }
    if (n >= 0 && (size_t)n < len) n += snprintf(out + n, len - (size_t)n, "}}");
    return n;
}

int count_records_counts(char *out, size_t len) {
    size_t dropped = 0;
    if (cupti.dropped) cupti.dropped(NULL, 0, &dropped);
    return render(out, len, dropped);
}

static void report(void) {
    static char text[4096];
    if (window_on) count_records_window(0);
    cupti.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    count_records_counts(text, sizeof text);
    fprintf(stderr, "%s\n", text);
    const char *out = getenv("COUNT_RECORDS_OUT");
    FILE *f = out && *out ? fopen(out, "w") : NULL;
    if (f) {
        fprintf(f, "%s\n", text);
        fclose(f);
    }
}

static void enable_all(void) {
    if (!registered) {
        /* Kineto registers its clock, then the buffer callbacks, at its first enable. */
        if (conf.tsc_clock && cupti.timestamp_callback && cupti.timestamp_callback(tsc_now) != CUPTI_SUCCESS)
            fprintf(stderr, "[count_records] cuptiActivityRegisterTimestampCallback failed\n");
        if (cupti.register_callbacks(requested, completed) != CUPTI_SUCCESS)
            fprintf(stderr, "[count_records] cuptiActivityRegisterCallbacks failed\n");
        registered = 1;
    }
    for (int k = 1; k < KINDS; k++) {
        if (!enabled[k]) continue;
        CUptiResult r = cupti.enable((CUpti_ActivityKind)k);
        if (r != CUPTI_SUCCESS) fprintf(stderr, "[count_records] enabling kind %d: %d\n", k, (int)r);
    }
    if (!cupti.runtime_api || !cupti.driver_api) return;
    if (conf.filter == FILTER_TIMELINE) {
        /* As our tracer applies ApiFilter::timeline through the V1 API: the kind enabled, then the
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
    } else if (conf.filter == FILTER_KINETO) {
        if (enabled[CUPTI_ACTIVITY_KIND_RUNTIME])
            for (size_t i = 0; i < sizeof kineto_runtime_left_out / sizeof *kineto_runtime_left_out; i++)
                cupti.runtime_api(kineto_runtime_left_out[i], 0);
        if (enabled[CUPTI_ACTIVITY_KIND_DRIVER])
            for (size_t i = 0; i < sizeof kineto_driver_left_out / sizeof *kineto_driver_left_out; i++)
                cupti.driver_api(kineto_driver_left_out[i], 0);
    }
}

static void disable_all(void) {
    for (int k = 1; k < KINDS; k++)
        if (enabled[k]) cupti.disable((CUpti_ActivityKind)k);
    cupti.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    if (conf.kineto_flush && cupti.set_attribute) {
        /* Kineto clears the per-thread-buffer attribute after each flush (CUDA 12.3 and later). */
        uint8_t value = 0;
        size_t size = sizeof value;
        cupti.set_attribute(CUPTI_ACTIVITY_ATTR_PER_THREAD_ACTIVITY_BUFFER, &size, &value);
    }
}

/* The program's window: 1 enables, 0 disables and flushes. Returns 0, or -1 before InitializeInjection. */
int count_records_window(int on) {
    if (!cupti.enable) return -1;
    pthread_mutex_lock(&window_lock);
    if (on && !window_on) {
        enable_all();
        windows++;
    } else if (!on && window_on) {
        disable_all();
    }
    window_on = on != 0;
    pthread_mutex_unlock(&window_lock);
    return 0;
}

static int env_flag(const char *name, int fallback) {
    const char *v = getenv(name);
    return v && *v ? atoi(v) != 0 : fallback;
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
    cupti.timestamp_callback = (timestamp_fn)resolve(lib, "cuptiActivityRegisterTimestampCallback");
    cupti.set_attribute = (attribute_fn)resolve(lib, "cuptiActivitySetAttribute");
    if (!cupti.register_callbacks || !cupti.enable || !cupti.disable || !cupti.next_record || !cupti.flush_all ||
        !cupti.dropped) {
        cupti.enable = NULL;
        return 1;
    }

    const char *preset = getenv("COUNT_RECORDS_PRESET");
    int kineto = preset && strcmp(preset, "kineto") == 0;
    conf.preset = kineto ? "kineto" : "ours";
    conf.filter = kineto ? FILTER_KINETO : FILTER_TIMELINE;
    const char *api = getenv("COUNT_RECORDS_API");
    if (api && strcmp(api, "all") == 0) conf.filter = FILTER_ALL;
    if (api && strcmp(api, "timeline") == 0) conf.filter = FILTER_TIMELINE;
    if (api && strcmp(api, "kineto") == 0) conf.filter = FILTER_KINETO;
    const char *tid = getenv("COUNT_RECORDS_THREAD_ID");
    conf.system_thread_ids = tid && *tid ? strcmp(tid, "system") == 0 : !kineto;
    const char *clock = getenv("COUNT_RECORDS_CLOCK");
    conf.tsc_clock = clock && *clock ? strcmp(clock, "tsc") == 0 : kineto;
    conf.recycle = env_flag("COUNT_RECORDS_RECYCLE", !kineto);
    conf.lazy = env_flag("COUNT_RECORDS_LAZY", kineto);
    conf.kineto_flush = kineto;
    const char *size = getenv("COUNT_RECORDS_BUFFER");
    if (size && atol(size) >= 4096) buffer_size = (size_t)atol(size);
    const char *kinds = getenv("COUNT_RECORDS_KINDS");
    if (!kinds || !*kinds) kinds = kineto ? "1,2,10,39,5,4,17" : "10,1,2,5,4,39";
    for (const char *p = kinds; *p;) {
        int k = atoi(p);
        if (k > 0 && k < KINDS) enabled[k] = 1;
        while (*p && *p != ',') p++;
        if (*p == ',') p++;
    }

    if (conf.system_thread_ids && cupti.thread_id_type) cupti.thread_id_type(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM);
    if (!conf.lazy) count_records_window(1);
    atexit(report);
    return 1;
}
