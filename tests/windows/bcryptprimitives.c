/* A stand-in for Windows' bcryptprimitives.dll, for the tests under wine only (never
 * shipped: scripts/dist-test.sh checks that the zip lacks it). Rust's standard library takes
 * its random bytes from ProcessPrng in that DLL (Windows 10 and later), which Debian 12's
 * wine 8 does not have; this one fills the buffer from RtlGenRandom (advapi32's
 * SystemFunction036), which wine has. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
