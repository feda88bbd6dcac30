/*
 * A CUPTI callback that does nothing: the baseline of examples/cupti_callback_overhead.rs.
 * It has CUpti_CallbackFunc's signature (userdata, CUpti_CallbackDomain, CUpti_CallbackId,
 * const void *cbdata) without including CUPTI's headers.
 *
 *   gcc -O2 -shared -fPIC -o libnoop_callback.so benches/c/noop_callback.c
 *   (or: nvcc -O2 -shared -Xcompiler -fPIC -o libnoop_callback.so benches/c/noop_callback.c)
 */
void noop_callback(void *userdata, int domain, unsigned int cbid, const void *cbdata)
{
    (void)userdata;
    (void)domain;
    (void)cbid;
    (void)cbdata;
}
