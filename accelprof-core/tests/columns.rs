use accelprof_core::columns::*;
use accelprof_core::intern::NameId;

fn kernel(i: u64) -> KernelRow {
    KernelRow {
        start: 100 * i,
        end: 100 * i + 50,
        device: 1,
        context: 2,
        stream: 7,
        correlation: i,
        grid_x: 4,
        grid_y: 2,
        grid_z: 1,
        block_x: 256,
        block_y: 1,
        block_z: 1,
        shared_memory: 4096,
        registers: 32,
        name: NameId(3),
    }
}

#[test]
fn rows_go_in_as_rows_and_come_out_as_columns() {
    let mut kernels = KernelColumns::new();
    for i in 0..5 {
        kernels.push(kernel(i));
    }
    assert_eq!(kernels.len(), 5);
    assert_eq!(kernels.start(), &[0, 100, 200, 300, 400]);
    assert_eq!(kernels.correlation(), &[0, 1, 2, 3, 4]);
    assert_eq!(kernels.registers(), &[32; 5]);
    assert_eq!(kernels.row(3), Some(kernel(3)));
    assert_eq!(kernels.row(5), None);
    assert_eq!(kernels.rows().collect::<Vec<_>>(), (0..5).map(kernel).collect::<Vec<_>>());
}

#[test]
fn clear_keeps_capacity() {
    let mut batch = Batch::new();
    for i in 0..1000 {
        batch.kernels.push(kernel(i));
        batch.api_calls.push(ApiRow { correlation: i, ..Default::default() });
    }
    let (kernel_cap, api_cap) = (batch.kernels.capacity(), batch.api_calls.capacity());
    assert!(kernel_cap >= 1000);
    batch.clear();
    assert!(batch.is_empty());
    assert_eq!(batch.len(), 0);
    assert_eq!(batch.kernels.capacity(), kernel_cap);
    assert_eq!(batch.api_calls.capacity(), api_cap);
    assert!(batch.kernels.start().is_empty());
}

#[test]
fn batch_reports_its_families() {
    let mut batch = Batch::new();
    assert_eq!(batch.families(), FamilySet::empty());
    batch.memcpys.push(MemcpyRow { bytes: 8, copy_kind: CopyKind::HTOD, ..Default::default() });
    batch.markers.push(MarkerRow { device: HOST_DEVICE, ..Default::default() });
    batch.markers.push(MarkerRow::default());
    batch.counters.push(CounterRow { value: 1.5, ..Default::default() });
    assert_eq!(batch.families(), FamilySet::MEMCPY | FamilySet::MARKER | FamilySet::COUNTER);
    assert_eq!(batch.len(), 4);
    assert_eq!(batch.len_of(Family::MARKER), 2);
    assert_eq!(batch.len_of(Family(42)), 0);

    let mut copy = Batch::new();
    copy.extend_from(&batch);
    copy.extend_from(&batch);
    assert_eq!(copy.len(), 8);
    assert_eq!(copy.counters.value(), &[1.5, 1.5]);
}

#[test]
fn every_family_has_its_own_columns_and_bit() {
    let mut batch = Batch::new();
    batch.kernels.push(KernelRow::default());
    batch.memcpys.push(MemcpyRow::default());
    batch.memsets.push(MemsetRow::default());
    batch.api_calls.push(ApiRow::default());
    batch.markers.push(MarkerRow::default());
    batch.collectives.push(CollectiveRow::default());
    batch.memory.push(MemoryRow::default());
    batch.syncs.push(SyncRow::default());
    batch.external_correlations.push(ExternalCorrelationRow::default());
    batch.counters.push(CounterRow::default());
    assert_eq!(batch.families(), FamilySet::all());
    let mut seen = FamilySet::empty();
    for family in Family::ALL {
        assert_eq!(batch.len_of(family), 1, "{family:?}");
        assert!(!seen.intersects(family.set()), "bits are distinct");
        seen |= family.set();
    }
    assert_eq!(seen, FamilySet::all());
    assert_eq!(
        FamilySet::GPU.iter_families().collect::<Vec<_>>(),
        [Family::KERNEL, Family::MEMCPY, Family::MEMSET]
    );
    assert!(FamilySet::GPU.has(Family::MEMSET) && !FamilySet::GPU.has(Family::API));
    assert!(Family(99).set().is_empty() && !FamilySet::all().has(Family(99)));
}

#[test]
fn unknown_enum_values_stay_representable() {
    assert_eq!(CopyKind(77).name(), "Unknown");
    assert_eq!(CopyKind::PTOP.name(), "PtoP");
    assert_eq!(MemoryKind(9).name(), "Unknown");
    assert_eq!(MemoryKind::MANAGED_STATIC.name(), "Managed Static");
    assert_eq!(Family::EXTERNAL_CORRELATION.name(), "external_correlation");
}
