//! `session_facade!` and `subscriber_facade!`: the vendor sessions' and callback subscribers'
//! pass-throughs to the shared core, written once.
//!
//! `cupti::activity::ActivitySession`, `mspti::activity::ActivitySession` and
//! `rocprofiler::activity::ActivitySession` are each the shared core's [`Session`](super::Session) over the
//! vendor's backend, plus what only that vendor has. The methods that only hand a call to the core
//! (`subscribe`, `unsubscribe`, `collect`, `names`, `kinds`, `pause`, `resume`, `is_collecting`, `switch`,
//! `flush`, `fence`, `counts`, `stop`, `end`, `core`) are emitted by `accelprof_core::session_facade!`
//! inside each vendor crate's `impl`, so they have one name, one signature and one body in all three.
//! Their doc comments are written once here too, except where what the call does to the vendor differs
//! (`pause`, `flush`, `fence`): the vendor writes those docs (and its `#[doc(alias)]`) in its call of the
//! macro, and the macro puts them on the method.
//!
//! A macro rather than a trait with provided methods: the methods stay inherent, so a user calls
//! `session.flush()` with no trait to import, and each appears on the vendor's type in its docs with the
//! vendor's doc comment and alias (a trait's provided method has one doc for every implementor).
//!
//! ```text
//! impl<'lib> ActivitySession<'lib> {
//!     accelprof_core::session_facade! {
//!         vendor: "CUPTI",
//!         core: |s| &s.session,          // how to reach the core's Session
//!         end: |s| s.finish(),           // the teardown `end` and `stop` run (here: the vendor's own)
//!         backend: Backend<'lib>,
//!         kind: ActivityKind,
//!         switch: ActivitySwitch<'lib>,
//!         counts: ActivityCounts,
//!         session_end: SessionEnd,
//!         result: Result,                // the vendor's `Result<T>` (its error is the backend's)
//!
//!         /// (CUPTI's doc of pause)
//!         #[doc(alias = "cuptiActivityDisable")]
//!         fn pause;
//!         /// (CUPTI's doc of flush)
//!         #[doc(alias = "cuptiActivityFlushAll")]
//!         fn flush;
//!         /// (CUPTI's doc of the fence)
//!         fn fence;                      // or: fn fence(before: |s| s.settle(false));
//!     }
//!     // the vendor's own methods: new, start, ...
//! }
//! ```
//!
//! `fence(before: |s| expr)` runs `expr` (a `Result<()>` of the vendor's) before the core's fence
//! (mspti's wait for the device's records). The caller names its own binding for `self` (`|s|`): a
//! `macro_rules!` macro cannot hand its `self` to the caller's tokens. `start`, `new` and `Drop` stay the
//! vendor's (what they do differs).
//!
//! `accelprof_core::subscriber_facade!` does the same for the callback `Subscriber`s: the panic tallies
//! of the closure's [`Handler`](crate::callback::Handler) (`panics`, `last_panic`) always, and, for a vendor
//! whose subscribers share one subscription through a [`Switchboard`](crate::callback::Switchboard) (CUPTI,
//! MSPTI), `disable_domain`, `disable`, `is_enabled`, `is_domain_enabled` and the private
//! `fn key(&self) -> u64` (the handler's key) the vendor's `enable` and `enable_domain` use. Enabling stays
//! the vendor's to write (what it checks first differs).
//!
//! ```text
//! impl<'lib> Subscriber<'lib> {
//!     accelprof_core::subscriber_facade! {
//!         vendor: "CUPTI",
//!         handler: |s| &s.handler,
//!         switchboard: {                 // left out for rocprofiler (one service per domain, no switchboard)
//!             hub: |s| s.hub,
//!             domain: CallbackDomain,
//!             id: CallbackId,
//!             alias_domain: "cuptiEnableDomain",
//!             alias_id: "cuptiEnableCallback",
//!             result: Result,
//!         },
//!     }
//! }
//! ```
//!
//! Both macros are hidden from the crate's top level in the docs (they are for the vendor crates);
//! `tests/vocabulary.rs` of the workspace compiles the same calls against the three vendor crates.

/// Emits the vendor activity session's pass-throughs to the shared core's `Session`, with their doc
/// comments, inside the vendor's `impl`: see the module documentation of `accelprof_core::activity::facade`.
#[doc(hidden)]
#[macro_export]
macro_rules! session_facade {
    (
        vendor: $vendor:literal,
        core: |$cs:ident| $core:expr,
        end: |$es:ident| $end:expr,
        backend: $Backend:ty,
        kind: $Kind:ty,
        switch: $Switch:ty,
        counts: $Counts:ty,
        session_end: $SessionEnd:ty,
        result: $Result:ident,

        $(#[$pause:meta])*
        fn pause;
        $(#[$flush:meta])*
        fn flush;
        $(#[$fence:meta])*
        fn fence $((before: |$fbs:ident| $before:expr))?;
    ) => {
        /// Calls `consumer` on the decode thread with every later batch holding rows of `families`.
        ///
        /// The batch is passed whole (it may hold other families too). A panic in `consumer` is caught
        /// and counted. Subscribe before [`start`](Self::start) to see every record: rows decoded while no consumer
        /// wants their family are counted as dropped (`Counts::records_unconsumed`). A consumer must
        /// not wait for this session ([`flush`](Self::flush) and [`fence`](Self::fence) refuse there).
        pub fn subscribe<F>(&self, families: $crate::FamilySet, consumer: F) -> $crate::pipeline::ConsumerId
        where
            F: FnMut(&$crate::Batch, &$crate::Names) + Send + 'static,
        {
            self.core().subscribe(families, consumer)
        }

        /// Stops calling a consumer; `false` when `id` was not subscribed (see
        /// [`Pipeline::unsubscribe`](accelprof_core::Pipeline::unsubscribe)).
        pub fn unsubscribe(&self, id: $crate::pipeline::ConsumerId) -> bool {
            self.core().unsubscribe(id)
        }

        /// A consumer that keeps a copy of every row of `families`; read them with
        /// [`Collected::take`](accelprof_core::activity::Collected::take).
        pub fn collect(&self, families: $crate::FamilySet) -> $crate::activity::Collected {
            self.core().collect(families)
        }

        /// The names the batches' `NameId`s refer to.
        pub fn names(&self) -> $crate::Names {
            self.core().names()
        }

        /// The kinds this session collects (enabled in the vendor while
        /// [`is_collecting`](Self::is_collecting)).
        pub fn kinds(&self) -> Vec<$Kind> {
            self.core().kinds()
        }

        $(#[$pause])*
        pub fn pause(&self) -> $Result<bool> {
            self.core().pause()
        }

        /// Undoes [`pause`](Self::pause) (see there what it does in the vendor): collection goes on;
        /// `Ok(false)` when not paused.
        pub fn resume(&self) -> $Result<bool> {
            self.core().resume()
        }

        /// Whether the session collects now (started, not paused, not ended).
        pub fn is_collecting(&self) -> bool {
            self.core().is_collecting()
        }

        /// A handle that pauses and resumes this session from anywhere (a timer thread, a callback).
        pub fn switch(&self) -> $Switch {
            self.core().switch()
        }

        $(#[$flush])*
        pub fn flush(&self) -> $Result<$crate::activity::FlushReport> {
            self.core().flush()
        }

        $(#[$fence])*
        pub fn fence(&self) -> $Result<$crate::activity::FlushReport> {
            $({
                let $fbs = self;
                $before?;
            })?
            self.core().fence()
        }

        #[doc = concat!("The tallies now: see [`", stringify!($Counts), "`].")]
        ///
        /// Once the session is quiet (after a fence with no device work running, or once ended):
        /// `records_produced() == records_delivered() + records_dropped()`.
        pub fn counts(&self) -> $Counts {
            self.core().counts()
        }

        /// Ends the session (as drop does: see the type's docs) and returns the final tallies; `Err`
        /// when the last fence failed (the session is ended all the same: see [`end`](Self::end) to get
        /// the tallies then too).
        pub fn stop(self) -> $Result<$Counts> {
            let end = self.end();
            end.fence.map(|_| end.counts)
        }

        /// Ends the session (as drop does: see the type's docs): the final tallies, and how the last
        /// fence went (on a vendor without a fence probe, a flush and a wait: `fenced` false).
        pub fn end(self) -> $SessionEnd {
            let $es = &self;
            $end
        }

        #[doc = concat!("The shared core's session this one is, over ", $vendor, "'s backend.")]
        pub fn core(&self) -> &$crate::activity::Session<$Backend> {
            let $cs = self;
            $core
        }
    };
}

/// Emits the vendor callback subscriber's pass-throughs, with their doc comments, inside the vendor's
/// `impl`: see the module documentation of `accelprof_core::activity::facade`.
#[doc(hidden)]
#[macro_export]
macro_rules! subscriber_facade {
    (
        vendor: $vendor:literal,
        handler: |$hs:ident| $handler:expr,
        $(switchboard: {
            hub: |$bs:ident| $hub:expr,
            domain: $Domain:ty,
            id: $Id:ty,
            alias_domain: $alias_domain:literal,
            alias_id: $alias_id:literal,
            result: $Result:ident,
        },)?
    ) => {
        #[doc = concat!(
            "How many times the closure panicked (each panic was caught, and never reached ",
            $vendor,
            "; the call went on)."
        )]
        pub fn panics(&self) -> u64 {
            let $hs = self;
            $handler.panics()
        }

        /// The message of the latest panic, if any.
        pub fn last_panic(&self) -> Option<String> {
            let $hs = self;
            $handler.last_panic()
        }

        $(
            #[doc = concat!(
                "Disables `domain` for this subscriber (ids enabled singly stay enabled; ",
                $vendor,
                " is told only when no subscriber wants it any more)."
            )]
            #[doc(alias = $alias_domain)]
            pub fn disable_domain(&self, domain: $Domain) -> $Result<()> {
                let $bs = self;
                $hub.disable(self.key(), $crate::callback::Target::Domain(domain.0))
            }

            #[doc = concat!(
                "Disables one callback id enabled with [`enable`](Self::enable) (a domain enabled whole \
                 stays enabled; ",
                $vendor,
                " is told only when no subscriber wants it any more)."
            )]
            #[doc(alias = $alias_id)]
            pub fn disable(&self, id: impl Into<$Id>) -> $Result<()> {
                let id = id.into();
                let $bs = self;
                $hub.disable(self.key(), $crate::callback::Target::Id(id.domain.0, id.cbid))
            }

            /// Whether this subscriber enabled `id` singly.
            pub fn is_enabled(&self, id: impl Into<$Id>) -> bool {
                let id = id.into();
                let $bs = self;
                $hub.is_enabled(self.key(), $crate::callback::Target::Id(id.domain.0, id.cbid))
            }

            /// Whether this subscriber enabled `domain` whole.
            pub fn is_domain_enabled(&self, domain: $Domain) -> bool {
                let $bs = self;
                $hub.is_enabled(self.key(), $crate::callback::Target::Domain(domain.0))
            }

            fn key(&self) -> u64 {
                let $hs = self;
                $handler.key()
            }
        )?
    };
}
