//! NVML is loaded from a stand-in library built here with the system's C compiler: a GPU at PCI
//! bus 00000000:19:00.0 drawing 300 W (its energy counter, mJ, rises 300 per ms of the process's
//! monotonic clock) or, without a counter, reading 250 W. Like NVML's, the stand-in's counter
//! runs from the first start, not from each `nvmlInit`: the tests run in parallel threads of one
//! process, which share the loaded library, and one test's start must not move another's counter
//! back mid-window (it did: 278 W read for 300).
use super::*;
use std::path::PathBuf;

const FAKE: &str = r#"
#include <stdio.h>
#include <string.h>
#include <time.h>
typedef int nvmlReturn_t;
typedef void *nvmlDevice_t;
static int device;
static double t0;
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static void start(void) { if (t0 == 0.0) t0 = now(); }
nvmlReturn_t nvmlInit_v2(void) { start(); return 0; }
nvmlReturn_t nvmlInitWithFlags(unsigned int flags) { (void)flags; start(); return 0; }
nvmlReturn_t nvmlShutdown(void) { return 0; }
const char *nvmlErrorString(nvmlReturn_t r) { (void)r; return "stand-in error"; }
nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char *bus, nvmlDevice_t *d) {
  if (strcmp(bus, "00000000:19:00.0") != 0) return 6; /* NVML_ERROR_NOT_FOUND */
  *d = &device; return 0;
}
nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t d, char *name, unsigned int len) { (void)d; snprintf(name, len, "Stand-in H100"); return 0; }
nvmlReturn_t nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t d, unsigned long long *mj) {
  (void)d;
#ifdef NO_COUNTER
  (void)mj; return 3; /* NVML_ERROR_NOT_SUPPORTED */
#else
  *mj = (unsigned long long)((now() - t0) * 300000.0); return 0;
#endif
}
nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t d, unsigned int *mw) { (void)d; *mw = 250000; return 0; }
"#;

/// The stand-in library, built once per flavour and process (never rewritten while another test
/// has it loaded).
fn stand_in(counter: bool) -> PathBuf {
    static BUILT: [std::sync::OnceLock<PathBuf>; 2] =
        [std::sync::OnceLock::new(), std::sync::OnceLock::new()];
    BUILT[usize::from(counter)]
        .get_or_init(|| build(counter))
        .clone()
}

fn build(counter: bool) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tpsview-fake-nvml-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let flavour = if counter { "counter" } else { "power" };
    let src = dir.join(format!("fake-nvml-{flavour}.c"));
    std::fs::write(&src, FAKE).unwrap();
    let lib = dir.join(format!("libfake-nvml-{flavour}.so"));
    let mut cc = std::process::Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()));
    cc.args(["-shared", "-fPIC", "-o"]).arg(&lib).arg(&src);
    if !counter {
        cc.arg("-DNO_COUNTER");
    }
    let out = cc.output().expect("a C compiler (cc)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    lib
}

#[test]
fn the_energy_counter_over_a_window_of_steps_gives_joules_per_step() {
    let lib = stand_in(true);
    let p = Power::open_with(Some(lib.as_os_str()), "00000000:19:00.0").expect("opens");
    assert!(p.describe().contains("Stand-in H100") && p.describe().contains("energy counter"));
    // Steps of about 2 ms for at least 0.5 s.
    let e = p
        .over(0.5, || {
            std::thread::sleep(std::time::Duration::from_millis(2));
            Ok(())
        })
        .expect("energy");
    assert!(e.steps >= 50, "{e:?}");
    // 300 W; the counter is read just inside the timed span, so a little under — give or take
    // its resolution (whole mJ: 2 mJ over 0.5 s is 0.004 W; 300.001 W was read once).
    assert!((e.watts - 300.0).abs() < 0.02 * 300.0, "{e:?}");
    assert!(e.watts <= 300.0 + 0.004, "{e:?}");
    // J per step × steps is the window's energy: 300 W × at least 0.5 s.
    let joules = e.joules_per_step * e.steps as f64;
    assert!(joules >= 0.98 * 300.0 * 0.5, "{e:?}");
    // A step that fails stops the window with its reason.
    assert_eq!(
        p.over(0.2, || Err("launch failed".into())),
        Err("launch failed".into())
    );
}

#[test]
fn without_a_counter_the_power_readings_are_integrated() {
    let lib = stand_in(false);
    let p = Power::open_with(Some(lib.as_os_str()), "00000000:19:00.0").expect("opens");
    assert!(p.describe().contains("power readings"), "{}", p.describe());
    let e = p
        .over(0.05, || {
            std::thread::sleep(std::time::Duration::from_millis(1));
            Ok(())
        })
        .expect("energy");
    assert!((e.watts - 250.0).abs() < 1e-9, "{e:?}");
}

#[test]
fn no_library_or_no_such_gpu_is_a_reason_not_a_failure() {
    let e = Power::open_with(
        Some(OsStr::new("/nonexistent/libnvidia-ml.so.1")),
        "00000000:19:00.0",
    )
    .err()
    .expect("no library");
    assert!(
        e.starts_with("NVML (libnvidia-ml) could not be loaded"),
        "{e}"
    );
    let lib = stand_in(true);
    let e = Power::open_with(Some(lib.as_os_str()), "00000000:3B:00.0")
        .err()
        .expect("no such GPU");
    assert!(e.contains("no GPU at PCI bus 00000000:3B:00.0"), "{e}");
    // A counter that did not move is no reading, never 0 J.
    assert!(energy(0.0, 10, 1.0).is_err());
    assert!(energy(-5.0, 10, 1.0).is_err());
}
