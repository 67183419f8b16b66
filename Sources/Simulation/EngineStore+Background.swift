import SDK

extension EngineStore {
    /// The app goes to the background with `time` to finish work
    /// (`EngagementSDK.applicationDidEnterBackground(_:)`): the engine takes it and runs until
    /// its mailbox is empty; the journal's flush and the requests it sends answer as the clock moves.
    package func enterBackground(_ time: BackgroundTime) {
        world.process?.post(.enteredBackground(time))
        world.process?.drainMailbox()
    }

    /// The app comes back to the foreground (`EngagementSDK.applicationWillEnterForeground()`).
    package func enterForeground() {
        world.process?.post(.enteredForeground)
        world.process?.drainMailbox()
    }
}
