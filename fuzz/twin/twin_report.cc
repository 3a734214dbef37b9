#include "fuzz/twin/twin_report.h"

#include <unistd.h>

#include <cstdio>

#include "fuzz/engine/report_format.h"

namespace ringfuzz::twin {
namespace {

void WriteLine(const char* line, int n) {
  if (n <= 0) return;
  // A single write(2): stderr may be shared by libFuzzer's -jobs workers.
  ssize_t unused = write(STDERR_FILENO, line, static_cast<size_t>(n));
  (void)unused;
}

}  // namespace

void ReportOverread(uint32_t index, uint32_t len) {
  char line[160];
  int n = snprintf(line, sizeof(line),
                   "%sinput overread: fz_byte(%u) with len %u\n",
                   kReportDetailPrefix, index, len);
  WriteLine(line, n);
}

void ReportCrash(uint32_t code) {
  char line[96];
  int n = snprintf(line, sizeof(line), "%sfz_crash(code=%u)\n",
                   kReportDetailPrefix, code);
  WriteLine(line, n);
}

void ReportTimeout(uint32_t budget) {
  char line[192];
  const unsigned long long steps = static_cast<unsigned long long>(budget) + 1;
  int n = snprintf(line, sizeof(line),
                   "==%d== %s%llu loop steps\n%stimeout after %llu loop "
                   "steps\n",
                   static_cast<int>(getpid()), kLibFuzzerTimeout, steps,
                   kReportDetailPrefix, steps);
  WriteLine(line, n);
}

}  // namespace ringfuzz::twin
